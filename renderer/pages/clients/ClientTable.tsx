import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef } from 'react';
import { clientAt } from '../../../app/clientColumns';
import type { ClientMark } from '../../../app/schemas/clients';
import { formatBytes, formatCount, formatDuration } from '../../lib/format';
import { chipText, MARK_WORDS } from './marks';
import { clientIndex, hasNetColumns, nodeIndex, NUMERIC, type SortKey, type TableData, type TableView } from './rows';

const ROW_HEIGHT = 26;

const COLUMNS: readonly { key: SortKey; label: string; title: string }[] = [
  { key: 'node', label: 'Node', title: 'The node this is a client of' },
  { key: 'addr', label: 'Address', title: 'The client’s own address (addr)' },
  { key: 'name', label: 'Name', title: 'CLIENT SETNAME' },
  { key: 'user', label: 'User', title: 'The ACL user it authenticated as' },
  { key: 'db', label: 'DB', title: 'The DB it has selected' },
  { key: 'cmd', label: 'Command', title: 'The last command it ran' },
  { key: 'age', label: 'Age', title: 'Connected for' },
  { key: 'idle', label: 'Idle', title: 'Since its last command' },
  { key: 'flags', label: 'Flags', title: 'CLIENT LIST flags: N none, S replica, M master, P pub/sub, O MONITOR, b blocked, x MULTI…' },
  { key: 'qbuf', label: 'Qbuf', title: 'Query buffer: what it sent that is not run yet' },
  { key: 'omem', label: 'Omem', title: 'Output buffer: replies not yet read by the client' },
  { key: 'totMem', label: 'Total', title: 'All the memory the client takes (tot-mem)' },
];

/** Valkey 8's per-client traffic since it connected; shown where a node reports it (hasNetColumns). */
const NET_COLUMNS: readonly { key: SortKey; label: string; title: string }[] = [
  { key: 'netIn', label: 'Net in', title: 'Bytes read from the client since it connected (tot-net-in)' },
  { key: 'netOut', label: 'Net out', title: 'Bytes written to the client since it connected (tot-net-out)' },
  { key: 'cmds', label: 'Cmds', title: 'Commands it ran since it connected (tot-cmds)' },
];

interface Props {
  data: TableData;
  /** The clients to show, in order (refs into `data`). */
  refs: readonly number[];
  view: TableView;
  onSort(key: SortKey): void;
  /** Undefined: no Kill column (the role or the profile does not allow it; the page says why). */
  onKill: ((ref: number) => void) | undefined;
  empty: string;
}

/**
 * Every client of the profile's nodes, any number of them: only the rows in view are in the
 * DOM. Names, commands and addresses are untrusted text, shown as text.
 */
export const ClientTable = memo(function ClientTable({ data, refs, view, onSort, onKill, empty }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: refs.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const kill = onKill !== undefined;
  const net = hasNetColumns(data);
  const columns = net ? [...COLUMNS, ...NET_COLUMNS] : COLUMNS;
  return (
    <div
      className={`cl-table${kill ? ' has-kill' : ''}${net ? ' has-net' : ''}`}
      role="table"
      aria-label="Clients"
      aria-rowcount={refs.length + 1}
      data-testid="clients-table"
      data-rows={refs.length}
    >
      <div className="cl-row cl-head" role="row">
        {columns.map((col) => (
          <SortHead key={col.key} col={col} view={view} onSort={onSort} />
        ))}
        <span role="columnheader" className="cl-c-marks">
          Highlights
        </span>
        {kill && <span role="columnheader" aria-label="Actions" />}
      </div>
      <div ref={scroller} className="cl-scroll" tabIndex={0} aria-label="Client rows" data-testid="clients-scroll">
        {refs.length === 0 && <p className="empty cl-empty">{empty}</p>}
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => {
            const ref = refs[item.index];
            return ref === undefined ? null : (
              <ClientLine key={item.key} data={data} ref_={ref} index={item.index} top={item.start} net={net} onKill={onKill} />
            );
          })}
        </div>
      </div>
    </div>
  );
});

function SortHead({ col, view, onSort }: { col: { key: SortKey; label: string; title: string }; view: TableView; onSort(key: SortKey): void }) {
  const active = view.sort === col.key;
  return (
    <span
      role="columnheader"
      aria-sort={active ? (view.order === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={`cl-c-${col.key}${NUMERIC.has(col.key) ? ' num' : ''}`}
    >
      <button
        type="button"
        className={`cl-sort${active ? ' is-sorted' : ''}`}
        onClick={() => onSort(col.key)}
        title={`${col.title}. Sort by ${col.label}.`}
        data-testid={`clients-sort-${col.key}`}
      >
        {col.label}
        {active && <span aria-hidden="true">{view.order === 'asc' ? ' ↑' : ' ↓'}</span>}
      </button>
    </span>
  );
}

/** The mark a row is tinted by: the most urgent it has. */
function tintOf(marks: readonly ClientMark[]): ClientMark | undefined {
  for (const m of ['omem', 'blocked', 'monitor', 'idle', 'pubsub', 'ours'] as const) if (marks.includes(m)) return m;
  return undefined;
}

/** One client, read from its node's columns; every text is rendered as text. */
const ClientLine = memo(function ClientLine({
  data,
  ref_,
  index,
  top,
  net,
  onKill,
}: {
  data: TableData;
  ref_: number;
  index: number;
  top: number;
  net: boolean;
  onKill: ((ref: number) => void) | undefined;
}) {
  const n = data.nodes[nodeIndex(ref_)];
  if (n === undefined) return null;
  // Only the rows in view are drawn: one object each is nothing.
  const c = clientAt(n.cols, clientIndex(ref_));
  const row = { node: n.address };
  const tint = tintOf(c.marks);
  return (
    <div
      className={`cl-row cl-line${index % 2 === 1 ? ' is-odd' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      data-mark={tint}
      data-testid="clients-row"
      data-id={c.id}
      data-node={row.node}
      style={{ height: ROW_HEIGHT, transform: `translateY(${top}px)` }}
    >
      <span role="cell" className="cl-c-node mono" title={row.node}>
        {row.node}
      </span>
      <span role="cell" className="cl-c-addr mono" title={c.addr}>
        {c.addr}
      </span>
      <span role="cell" className="cl-c-name mono" title={c.name} data-testid="clients-name">
        {c.name === '' ? <span className="muted">—</span> : c.name}
      </span>
      <span role="cell" className="cl-c-user mono" title={c.user}>
        {c.user}
      </span>
      <span role="cell" className="num">
        {c.db}
      </span>
      <span role="cell" className="cl-c-cmd mono" title={c.lib === undefined ? c.cmd : `${c.cmd} · ${c.lib}`}>
        {c.cmd}
      </span>
      <span role="cell" className="num">
        {formatDuration(c.age)}
      </span>
      <span role="cell" className="num">
        {formatDuration(c.idle)}
      </span>
      <span role="cell" className="cl-c-flags mono">
        {c.flags}
      </span>
      <span role="cell" className="num" title={`${formatCount(c.qbuf)} bytes`}>
        {formatBytes(c.qbuf)}
      </span>
      <span role="cell" className="num" title={`${formatCount(c.omem)} bytes`}>
        {formatBytes(c.omem)}
      </span>
      <span role="cell" className="num" title={`${formatCount(c.totMem)} bytes`}>
        {formatBytes(c.totMem)}
      </span>
      {net && (
        <>
          <span role="cell" className="num" data-col="netIn" title={c.netIn === undefined ? undefined : `${formatCount(c.netIn)} bytes`}>
            {c.netIn === undefined ? '—' : formatBytes(c.netIn)}
          </span>
          <span role="cell" className="num" data-col="netOut" title={c.netOut === undefined ? undefined : `${formatCount(c.netOut)} bytes`}>
            {c.netOut === undefined ? '—' : formatBytes(c.netOut)}
          </span>
          <span role="cell" className="num" data-col="cmds">
            {c.cmds === undefined ? '—' : formatCount(c.cmds)}
          </span>
        </>
      )}
      <span role="cell" className="cl-c-marks">
        {c.marks.map((m) => (
          <span key={m} className="cl-chip" data-mark={m} title={MARK_WORDS[m].title}>
            {chipText(m, c.limitShare)}
          </span>
        ))}
      </span>
      {onKill !== undefined && (
        <span role="cell">
          <button
            type="button"
            className="btn btn-small btn-danger-ghost cl-kill"
            onClick={() => onKill(ref_)}
            aria-label={`Kill client ${c.id}`}
            data-testid="clients-kill"
          >
            Kill
          </button>
        </span>
      )}
    </div>
  );
});
