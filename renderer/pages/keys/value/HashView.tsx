import { useState } from 'react';
import type { ValueBytes } from '../../../../app/schemas/keys';
import { useBridge } from '../../../bridge/BridgeContext';
import { EscapedField, allTyped } from '../../../components/EscapedField';
import { LoadMore } from './LoadMore';
import { MatchFilter } from './MatchFilter';
import { usePaged } from './usePaged';
import { ValueText } from './ValueText';
import { readPage, type ViewProps } from './viewProps';
import { RowActions } from './RowActions';
import { VirtualRows } from '../../../components/bytes/VirtualRows';

interface Entry {
  field: ValueBytes;
  value: ValueBytes;
}

const ROW = 28;

/** A hash by HSCAN pages (never HGETALL), with a field glob; ops set and delete fields. */
export function HashView({ where, canEdit, edit, version }: ViewProps) {
  const bridge = useBridge();
  const [match, setMatch] = useState<string>();
  const paged = usePaged<Entry, string>(`${where.key}|${match ?? ''}|${version}`, '0', async (cursor) => {
    const r = await readPage(bridge, where, { type: 'hash', cursor, count: 200, ...(match === undefined ? {} : { match }) });
    return { items: r.entries, next: r.cursor === '0' ? null : r.cursor, total: r.total };
  });
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

  function save() {
    if (typed === undefined) return;
    const [f, v] = typed as [string, string];
    const expectValue = from !== undefined && from.field.b64 === f ? from.value.b64 : null;
    void edit.run({ op: 'hash.set', field: f, value: v, expectValue }).then((d) => {
      if (d === undefined) return;
      setField('');
      setValue('');
      setFrom(undefined);
    });
  }

  const columns = canEdit ? 'minmax(0, 2fr) minmax(0, 3fr) 110px' : 'minmax(0, 2fr) minmax(0, 3fr)';
  return (
    <div className="kv-view" data-testid="kv-hash">
      <div className="kv-view-bar">
        <MatchFilter noun="fields" onApply={setMatch} />
      </div>
      {canEdit && (
        <form
          className="kv-form"
          data-testid="kv-hash-form"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <EscapedField label="Field" value={field} onChange={setField} testId="kv-hash-field" className="kv-grow" />
          <EscapedField label="Value" value={value} onChange={setValue} testId="kv-hash-value" className="kv-grow2" />
          <button type="submit" className="btn btn-small btn-primary" disabled={edit.busy || typed === undefined} data-testid="kv-hash-save">
            {from !== undefined ? 'Save field' : 'Set field'}
          </button>
        </form>
      )}
      <div className="kv-head" style={{ gridTemplateColumns: columns }}>
        <span>Field</span>
        <span>Value</span>
        {canEdit && <span />}
      </div>
      <VirtualRows
        label="Fields"
        testId="kv-rows"
        count={paged.items.length}
        rowHeight={ROW}
        columns={columns}
        row={(i) => {
          const e = paged.items[i] as Entry;
          return (
            <>
              <ValueText value={e.field} testId="kv-field" />
              <ValueText value={e.value} testId="kv-cell-value" />
              {canEdit && (
                <RowActions
                  busy={edit.busy}
                  cut={e.field.truncated || e.value.truncated}
                  onEdit={() => {
                    setFrom(e);
                    setField(e.field.text);
                    setValue(e.value.text);
                  }}
                  onDelete={() => void edit.run({ op: 'hash.delete', field: e.field.b64, expectValue: e.value.b64 })}
                />
              )}
            </>
          );
        }}
      />
      <LoadMore shown={paged.items.length} total={paged.total} noun="fields" more={paged.more} loading={paged.loading} error={paged.error} onMore={paged.loadMore} filtered={match !== undefined} />
    </div>
  );
}
