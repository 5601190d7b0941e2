import { describe, expect, it } from 'vitest';
import { toColumns } from '../../../app/clientColumns';
import type { ClientRow, ClientsList, NodeClients } from '../../../app/schemas/clients';
import { memoryRows } from './memoryRows';
import { pauseSeconds } from './PauseDialog';
import { DEFAULT_VIEW, hasNetColumns, rowAt, sortBy, tableData, viewRefs, type TableView } from './rows';

const client = (id: string, over: Partial<ClientRow> = {}): ClientRow => ({
  id,
  addr: `10.0.0.1:${id}`,
  name: '',
  user: 'default',
  db: 0,
  cmd: 'get',
  age: 1,
  idle: 0,
  flags: 'N',
  subs: 0,
  qbuf: 0,
  argvMem: 0,
  multiMem: 0,
  omem: 0,
  totMem: 100,
  kind: 'normal',
  marks: [],
  ...over,
});
const totals = {
  clients: 0,
  byName: [],
  byUser: [],
  memory: { qbuf: 1, argvMem: 2, multiMem: 3, omem: 4, totMem: 100 },
  marks: { omem: 0, idle: 0, blocked: 0, monitor: 0, pubsub: 0, ours: 0 },
};
const node = (address: string, clients: ClientRow[]): NodeClients => ({
  address,
  role: 'master',
  up: true,
  clients: toColumns(clients),
  notShown: 0,
  unparsed: 0,
  totals,
});
const list: ClientsList = {
  at: 0,
  idleSeconds: 60,
  nearLimitShare: 0.8,
  bigOmemBytes: 1,
  nodes: [
    node('a:1', [client('9', { name: 'Worker', totMem: 300 }), client('10', { name: 'api', marks: ['idle'] })]),
    node('b:2', [client('2', { user: 'app', cmd: 'blpop', marks: ['blocked'], totMem: 300 })]),
  ],
};

describe('the clients table', () => {
  const data = tableData(list);
  const viewRows = (_: unknown, view: TableView) => viewRefs(data, view).map((ref) => rowAt(data, ref) ?? { c: client('?'), node: '?' });
  const rows = undefined;

  it("has traffic columns only where a node reports Valkey 8's tot-net-in/out and tot-cmds, and sorts by them with the unreported last", () => {
    expect(hasNetColumns(data)).toBe(false);
    const valkey = tableData({
      ...list,
      nodes: [node('v:1', [client('1', { netIn: 10, netOut: 5000, cmds: 3 }), client('2', { netIn: 900, netOut: 10, cmds: 40 })]), node('r:2', [client('3')])],
    });
    expect(hasNetColumns(valkey)).toBe(true);
    const byIn = sortBy(DEFAULT_VIEW, 'netIn');
    expect(byIn.order).toBe('desc');
    expect(viewRefs(valkey, byIn).map((ref) => rowAt(valkey, ref)?.c.id)).toEqual(['2', '1', '3']);
    expect(rowAt(valkey, viewRefs(valkey, byIn)[0] ?? -1)?.c).toMatchObject({ netIn: 900, netOut: 10, cmds: 40 });
  });

  it('sorts by total memory, biggest first, ties by id as a number; a head click flips or starts over', () => {
    expect(viewRows(rows, DEFAULT_VIEW).map((r) => r.c.id)).toEqual(['2', '9', '10']);
    const byName = sortBy(DEFAULT_VIEW, 'name');
    expect(byName).toMatchObject({ sort: 'name', order: 'asc' });
    expect(viewRows(rows, byName).map((r) => r.c.name)).toEqual(['', 'Worker', 'api']);
    expect(sortBy(byName, 'name').order).toBe('desc');
    expect(sortBy(byName, 'idle')).toMatchObject({ sort: 'idle', order: 'desc' });
    expect(viewRows(rows, { ...DEFAULT_VIEW, sort: 'node', order: 'desc' }).map((r) => r.node)).toEqual(['b:2', 'a:1', 'a:1']);
  });

  it('filters by text over every text column, any case, by node, and by highlight', () => {
    expect(viewRows(rows, { ...DEFAULT_VIEW, text: 'WORK' }).map((r) => r.c.id)).toEqual(['9']);
    expect(viewRows(rows, { ...DEFAULT_VIEW, text: 'blpop' }).map((r) => r.c.id)).toEqual(['2']);
    expect(viewRows(rows, { ...DEFAULT_VIEW, text: 'b:2' }).map((r) => r.c.id)).toEqual(['2']);
    expect(viewRows(rows, { ...DEFAULT_VIEW, node: 'a:1' }).map((r) => r.c.id)).toEqual(['9', '10']);
    expect(viewRows(rows, { ...DEFAULT_VIEW, mark: 'idle' }).map((r) => r.c.id)).toEqual(['10']);
    // The text is matched as text: pattern characters mean themselves.
    expect(viewRows(rows, { ...DEFAULT_VIEW, text: '.*' })).toEqual([]);
    expect(viewRows(rows, { ...DEFAULT_VIEW, text: '([' })).toEqual([]);
    expect(viewRows(rows, { ...DEFAULT_VIEW, text: '10.0.0.1:1' }).map((r) => r.c.id)).toEqual(['10']);
  });

  it('stacks each node’s memory by kind, the rest of tot-mem last; a node that failed has no bar', () => {
    expect(memoryRows([...list.nodes, { ...node('c:3', []), error: { code: 'NOPERM', message: 'no' } }])).toEqual([
      { node: 'a:1', total: 100, qbuf: 1, argvMem: 2, multiMem: 3, omem: 4, other: 90 },
      { node: 'b:2', total: 100, qbuf: 1, argvMem: 2, multiMem: 3, omem: 4, other: 90 },
    ]);
  });

  it('takes 1 to 60 whole seconds for a pause', () => {
    expect(pauseSeconds('5')).toEqual({ seconds: 5 });
    expect(pauseSeconds('60')).toEqual({ seconds: 60 });
    for (const bad of ['', '0', '61', '1.5', 'x']) expect('error' in pauseSeconds(bad), bad).toBe(true);
  });
});
