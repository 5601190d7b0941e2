import { useMemo, useState } from 'react';
import type { ValueBytes } from '../../../../app/schemas/keys';
import { useBridge } from '../../../bridge/BridgeContext';
import { EscapedField, allTyped } from '../../../components/EscapedField';
import { LoadMore } from './LoadMore';
import { StreamGroups } from './StreamGroups';
import { usePaged } from './usePaged';
import { ValueText } from './ValueText';
import { readPage, type ViewProps } from './viewProps';
import { RowActions } from './RowActions';
import { VirtualRows } from '../../../components/bytes/VirtualRows';

interface Entry {
  id: string;
  fields: { field: ValueBytes; value: ValueBytes }[];
}

const ROW = 28;
/** Field columns drawn at most; an entry's other fields are counted in its last cell. */
const MAX_COLUMNS = 10;

/** Columns: the union of the fields of the entries loaded, in the order first seen. */
function fieldColumns(entries: readonly Entry[]): { columns: string[]; more: number } {
  const seen = new Set<string>();
  for (const e of entries) for (const f of e.fields) seen.add(f.field.text);
  const all = [...seen];
  return { columns: all.slice(0, MAX_COLUMNS), more: Math.max(0, all.length - MAX_COLUMNS) };
}

/** A stream by XRANGE/XREVRANGE pages, as a table of its fields; its groups, consumers and pending entries below. */
export function StreamView({ where, canEdit, edit, version }: ViewProps) {
  const bridge = useBridge();
  const [rev, setRev] = useState(true);
  const paged = usePaged<Entry, { start: string; end: string }>(`${where.key}|${rev}|${version}`, { start: '-', end: '+' }, async ({ start, end }) => {
    const r = await readPage(bridge, where, { type: 'stream', start, end, rev, count: 100 });
    const last = r.entries.at(-1)?.id;
    const next = r.entries.length < 100 || last === undefined ? null : rev ? { start, end: `(${last}` } : { start: `(${last}`, end };
    return { items: r.entries, next, total: r.total };
  });
  const { columns, more } = useMemo(() => fieldColumns(paged.items), [paged.items]);
  const [id, setId] = useState('*');
  const [pairs, setPairs] = useState([{ field: '', value: '' }]);
  const typed = allTyped(...pairs.flatMap((p) => [p.field, p.value]));

  function add() {
    if (!typed) return;
    const fields = pairs.map((_, i) => ({ field: typed[2 * i] as string, value: typed[2 * i + 1] as string }));
    void edit.run({ op: 'stream.add', id: id.trim() === '' ? '*' : id.trim(), fields }).then((d) => {
      if (d === undefined) return;
      setPairs([{ field: '', value: '' }]);
      setId('*');
    });
  }

  const grid = `170px repeat(${Math.max(1, columns.length)}, minmax(110px, 1fr))${canEdit ? ' 70px' : ''}`;
  // Wider than the panel with many fields: the table scrolls sideways, head and rows together.
  const minWidth = 170 + Math.max(1, columns.length) * 120 + (canEdit ? 80 : 0);
  return (
    <div className="kv-view" data-testid="kv-stream">
      <div className="kv-view-bar">
        <label className="kv-check">
          <input type="checkbox" checked={rev} onChange={(e) => setRev(e.target.checked)} data-testid="kv-stream-rev" />
          newest first (XREVRANGE)
        </label>
        {more > 0 && <span className="muted">{more} more field names not shown as columns</span>}
      </div>
      {canEdit && (
        <form
          className="kv-form kv-stream-form"
          data-testid="kv-stream-form"
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
        >
          <div className="field kv-score">
            <label htmlFor="kv-stream-id">Entry ID</label>
            <input id="kv-stream-id" type="text" className="mono" value={id} onChange={(e) => setId(e.target.value)} data-testid="kv-stream-id" />
          </div>
          {pairs.map((p, i) => (
            <span className="kv-pair" key={i}>
              <EscapedField
                label="Field"
                value={p.field}
                onChange={(v) => setPairs((ps) => ps.map((q, j) => (j === i ? { ...q, field: v } : q)))}
                testId={`kv-stream-field-${i}`}
              />
              <EscapedField
                label="Value"
                value={p.value}
                onChange={(v) => setPairs((ps) => ps.map((q, j) => (j === i ? { ...q, value: v } : q)))}
                testId={`kv-stream-value-${i}`}
              />
            </span>
          ))}
          <button type="button" className="btn btn-small" onClick={() => setPairs((ps) => [...ps, { field: '', value: '' }])} disabled={pairs.length >= 50}>
            + field
          </button>
          <button type="submit" className="btn btn-small btn-primary" disabled={edit.busy || !typed} data-testid="kv-stream-add">
            Add entry
          </button>
        </form>
      )}
      <div className="kv-scroll-x">
        <div style={{ minWidth }}>
          <div className="kv-head" style={{ gridTemplateColumns: grid }}>
            <span>ID</span>
            {columns.length === 0 ? (
              <span>Fields</span>
            ) : (
              columns.map((c) => (
                <span key={c} className="mono" title={c}>
                  {c}
                </span>
              ))
            )}
            {canEdit && <span />}
          </div>
          <VirtualRows
            label="Entries"
            testId="kv-rows"
            count={paged.items.length}
            rowHeight={ROW}
            columns={grid}
            row={(i) => {
              const e = paged.items[i] as Entry;
              const byField = new Map(e.fields.map((f) => [f.field.text, f.value]));
              const hidden = e.fields.filter((f) => !columns.includes(f.field.text)).length;
              return (
                <>
                  <span className="mono" data-testid="kv-stream-entry-id">
                    {e.id}
                  </span>
                  {columns.map((c, ci) => {
                    const v = byField.get(c);
                    return (
                      <span key={c} className="kv-cell">
                        {v === undefined ? <span className="muted">—</span> : <ValueText value={v} testId="kv-cell-value" />}
                        {ci === columns.length - 1 && hidden > 0 && <span className="muted"> +{hidden}</span>}
                      </span>
                    );
                  })}
                  {columns.length === 0 && <span className="muted">no fields</span>}
                  {canEdit && <RowActions busy={edit.busy} cut={false} onDelete={() => void edit.run({ op: 'stream.delete', id: e.id })} />}
                </>
              );
            }}
          />
        </div>
      </div>
      <LoadMore
        shown={paged.items.length}
        total={paged.total}
        noun="entries"
        more={paged.more}
        loading={paged.loading}
        error={paged.error}
        onMore={paged.loadMore}
      />
      <StreamGroups where={where} key={version} />
    </div>
  );
}
