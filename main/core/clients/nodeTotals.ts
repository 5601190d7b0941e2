import { CLIENT_MARKS, type ClientMark, type ClientRow, type NodeTotals } from '../../../app/schemas/clients';

/** Names and users listed per node: the most frequent, the rest are in the clients count. */
export const TOP_COUNTED = 12;

function top(counts: Map<string, number>): { name: string; count: number }[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, TOP_COUNTED)
    .map(([name, count]) => ({ name, count }));
}

/** What one node's clients add up to: by name, by user, memory by kind, and each highlight. */
export function nodeTotals(rows: readonly ClientRow[]): NodeTotals {
  const names = new Map<string, number>();
  const users = new Map<string, number>();
  const memory = { qbuf: 0, argvMem: 0, multiMem: 0, omem: 0, totMem: 0 };
  const marks = Object.fromEntries(CLIENT_MARKS.map((m) => [m, 0])) as Record<ClientMark, number>;
  for (const r of rows) {
    names.set(r.name, (names.get(r.name) ?? 0) + 1);
    users.set(r.user, (users.get(r.user) ?? 0) + 1);
    memory.qbuf += r.qbuf;
    memory.argvMem += r.argvMem;
    memory.multiMem += r.multiMem;
    memory.omem += r.omem;
    memory.totMem += r.totMem;
    for (const m of r.marks) marks[m] += 1;
  }
  return { clients: rows.length, byName: top(names), byUser: top(users), memory, marks };
}

/**
 * At most `cap` rows, the ones that matter most kept: highlighted first (ours aside), then
 * the biggest by total memory. The order within is CLIENT LIST's (the page sorts).
 */
export function keepMost(rows: readonly ClientRow[], cap: number): ClientRow[] {
  if (rows.length <= cap) return [...rows];
  const weight = (r: ClientRow) => (r.marks.some((m) => m !== 'ours') ? 1 : 0);
  const ranked = rows.map((r, i) => ({ r, i })).sort((a, b) => weight(b.r) - weight(a.r) || b.r.totMem - a.r.totMem || a.i - b.i);
  return ranked
    .slice(0, cap)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.r);
}
