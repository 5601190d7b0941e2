import { useState } from 'react';
import type { ValueBytes } from '../../../../app/schemas/keys';
import { useBridge } from '../../../bridge/BridgeContext';
import { EscapedField, allTyped } from '../../../components/EscapedField';
import { ElementFind, FindStatus } from './ElementFind';
import { LoadMore } from './LoadMore';
import { useEditFocus } from './useEditFocus';
import { useFindElements } from './useFindElements';
import { usePaged } from './usePaged';
import { ValueText } from './ValueText';
import { readPage, type ViewProps } from './viewProps';
import { RowActions } from './RowActions';
import { VirtualRows } from '../../../components/bytes/VirtualRows';
import { formatDuration } from '../../../lib/format';

interface Entry {
  field: ValueBytes;
  value: ValueBytes;
  /** -1 none; null where the server has no hash-field expiration. */
  ttlMs: number | null;
}

/** A field's TTL as read with its page (HPTTL). */
function fieldTtlText(ms: number | null): string {
  if (ms === null) return '';
  return ms < 0 ? 'none' : formatDuration(Math.ceil(ms / 1000));
}

const ROW = 28;

/**
 * A hash by HSCAN pages (never HGETALL), with a field glob; ops set and delete fields. Where the
 * server has hash-field expiration (`fieldTtls`), each field shows its TTL and ops set or remove
 * it; a field's edit keeps its TTL (the server's script does).
 */
export function HashView({ where, canEdit, edit, version, fieldTtls }: ViewProps & { fieldTtls: boolean }) {
  const bridge = useBridge();
  const paged = usePaged<Entry, string>(`${where.key}|${version}`, '0', async (cursor) => {
    const r = await readPage(bridge, where, { type: 'hash', cursor, count: 200 });
    return { items: r.entries, next: r.cursor === '0' ? null : r.cursor, total: r.total };
  });
  const find = useFindElements(where, 'hash', version);
  const focus = useEditFocus();
  const rows: Entry[] = find.match === undefined ? paged.items : find.found.map((f) => ({ field: f.element, value: f.value ?? f.element, ttlMs: f.ttlMs }));
  const [field, setField] = useState('');
  const [value, setValue] = useState('');
  /** The row the form was filled from: its value is what the set expects to replace. */
  const [from, setFrom] = useState<Entry>();
  // A new version (an edit landed, or Reload): a form filled from the old rows would expect stale values.
  const [seenVersion, setSeenVersion] = useState(version);
  if (seenVersion !== version) {
    setSeenVersion(version);
    setFrom(undefined);
  }
  const typed = allTyped(field, value);
  const [fieldTtl, setFieldTtl] = useState('');
  const fieldTtlSeconds = /^\d+$/.test(fieldTtl.trim()) ? Number(fieldTtl.trim()) : NaN;
  function setTtl(ttlSeconds: number | null) {
    if (from === undefined) return;
    void edit.run({ op: 'hash.ttl', field: from.field.b64, expectValue: from.value.b64, ttlSeconds }).then((d) => d !== undefined && setFieldTtl(''));
  }

  function save() {
    if (typed === undefined) return;
    const [f, v] = typed as [string, string];
    const expectValue = from !== undefined && from.field.b64 === f ? from.value.b64 : null;
    void edit.run({ op: 'hash.set', field: f, value: v, expectValue }).then((d) => {
      if (d === undefined) return;
      setField('');
      setValue('');
      setFrom(undefined);
      focus.closed();
    });
  }

  function cancel() {
    setField('');
    setValue('');
    setFrom(undefined);
    focus.closed();
  }

  const columns = ['minmax(0, 2fr)', 'minmax(0, 3fr)', ...(fieldTtls ? ['90px'] : []), ...(canEdit ? ['110px'] : [])].join(' ');
  return (
    <div className="kv-view" data-testid="kv-hash" ref={focus.rootRef}>
      <div className="kv-view-bar">
        <ElementFind find={find} noun="fields" />
      </div>
      {canEdit && (
        <form
          className="kv-form"
          data-testid="kv-hash-form"
          ref={focus.formRef}
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && from !== undefined) cancel();
          }}
        >
          <EscapedField label="Field" value={field} onChange={setField} testId="kv-hash-field" className="kv-grow" />
          <EscapedField label="Value" value={value} onChange={setValue} testId="kv-hash-value" className="kv-grow2" />
          <button type="submit" className="btn btn-small btn-primary" disabled={edit.busy || typed === undefined} data-testid="kv-hash-save">
            {from !== undefined ? 'Save field' : 'Set field'}
          </button>
          {from !== undefined && (
            <button type="button" className="btn btn-small" onClick={cancel} data-testid="kv-hash-cancel">
              Cancel
            </button>
          )}
        </form>
      )}
      {canEdit && fieldTtls && from !== undefined && (
        <form
          className="kv-form"
          data-testid="kv-hash-ttl-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (fieldTtlSeconds >= 1) setTtl(fieldTtlSeconds);
          }}
        >
          <div className="field">
            <label htmlFor="kv-hash-ttl-input">Field expires in (seconds)</label>
            <input
              id="kv-hash-ttl-input"
              type="text"
              inputMode="numeric"
              value={fieldTtl}
              onChange={(e) => setFieldTtl(e.target.value)}
              data-testid="kv-hash-ttl-input"
            />
          </div>
          <button type="submit" className="btn btn-small" disabled={edit.busy || !(fieldTtlSeconds >= 1)} data-testid="kv-hash-ttl-save">
            Set field TTL
          </button>
          <button
            type="button"
            className="btn btn-small"
            disabled={edit.busy || from.ttlMs === null || from.ttlMs < 0}
            onClick={() => setTtl(null)}
            data-testid="kv-hash-ttl-remove"
          >
            Remove field TTL
          </button>
        </form>
      )}
      <div className="kv-head" style={{ gridTemplateColumns: columns }}>
        <span>Field</span>
        <span>Value</span>
        {fieldTtls && <span>TTL</span>}
        {canEdit && <span />}
      </div>
      <VirtualRows
        label="Fields"
        testId="kv-rows"
        count={rows.length}
        rowHeight={ROW}
        columns={columns}
        row={(i) => {
          const e = rows[i] as Entry;
          return (
            <>
              <ValueText value={e.field} testId="kv-field" />
              <ValueText value={e.value} testId="kv-cell-value" />
              {fieldTtls && (
                <span className="muted" data-testid="kv-field-ttl">
                  {fieldTtlText(e.ttlMs)}
                </span>
              )}
              {canEdit && (
                <RowActions
                  busy={edit.busy}
                  cut={e.field.truncated || e.value.truncated}
                  editRow={e.field.b64}
                  onEdit={() => {
                    setFrom(e);
                    setField(e.field.text);
                    setValue(e.value.text);
                    focus.opened(e.field.b64);
                  }}
                  onDelete={() => void edit.run({ op: 'hash.delete', field: e.field.b64, expectValue: e.value.b64 })}
                />
              )}
            </>
          );
        }}
      />
      {find.match === undefined ? (
        <LoadMore
          shown={paged.items.length}
          total={paged.total}
          noun="fields"
          more={paged.more}
          loading={paged.loading}
          error={paged.error}
          onMore={paged.loadMore}
        />
      ) : (
        <FindStatus find={find} noun="fields" one="field" />
      )}
      {fieldTtls && (
        <p className="hint" data-testid="kv-hash-count-note">
          The field count is HLEN: it includes fields whose TTL has passed until Redis reclaims them (on access or by its active expiry).
        </p>
      )}
    </div>
  );
}
