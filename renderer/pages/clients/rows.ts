import type { ClientMark, ClientRow, ClientsList } from '../../../app/schemas/clients';

/** One client with the node it is a client of: the table's row. */
export interface Row {
  c: ClientRow;
  node: string;
  /** What the text filter reads: every text column, lower case, built once per answer. */
  hay: string;
}

export const SORT_KEYS = ['node', 'addr', 'name', 'user', 'db', 'cmd', 'age', 'idle', 'flags', 'qbuf', 'omem', 'totMem'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type Order = 'asc' | 'desc';

export interface TableView {
  text: string;
  /** A node's address, or every node. */
  node: string | undefined;
  mark: ClientMark | undefined;
  sort: SortKey;
  order: Order;
}

export const DEFAULT_VIEW: TableView = { text: '', node: undefined, mark: undefined, sort: 'totMem', order: 'desc' };

/** Numbers sort biggest first on a first click; text A to Z. */
export const NUMERIC: ReadonlySet<SortKey> = new Set<SortKey>(['db', 'age', 'idle', 'qbuf', 'omem', 'totMem']);

/** Every client of every node, in node order. */
export function rowsOf(list: ClientsList | undefined): Row[] {
  const out: Row[] = [];
  for (const n of list?.nodes ?? []) {
    for (const c of n.clients) {
      out.push({ c, node: n.address, hay: `${c.id} ${c.addr} ${c.name} ${c.user} ${c.cmd} ${c.flags} ${n.address} ${c.lib ?? ''}`.toLowerCase() });
    }
  }
  return out;
}

function valueOf(r: Row, key: SortKey): string | number {
  return key === 'node' ? r.node : r.c[key];
}

/** Ids are digits: the shorter is the smaller, then the text decides (no 64-bit number is rounded). */
function byId(a: Row, b: Row): number {
  return a.c.id.length - b.c.id.length || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0);
}

/**
 * The rows the filters keep, sorted. Plain `<` on text (not localeCompare): 10,000 rows sort
 * in a few milliseconds, and addresses and flags are ASCII anyway. Ties go by client id.
 */
export function viewRows(rows: readonly Row[], view: TableView): Row[] {
  const q = view.text.trim().toLowerCase();
  const kept = rows.filter((r) => (view.node === undefined || r.node === view.node) && (view.mark === undefined || r.c.marks.includes(view.mark)) && (q === '' || r.hay.includes(q)));
  const dir = view.order === 'asc' ? 1 : -1;
  const key = view.sort;
  return kept.sort((a, b) => {
    const x = valueOf(a, key);
    const y = valueOf(b, key);
    return (x < y ? -dir : x > y ? dir : 0) || byId(a, b);
  });
}

/** A column head's click: the same column flips, another starts at its natural order. */
export function sortBy(view: TableView, key: SortKey): TableView {
  if (view.sort === key) return { ...view, order: view.order === 'asc' ? 'desc' : 'asc' };
  return { ...view, sort: key, order: NUMERIC.has(key) ? 'desc' : 'asc' };
}
