import { describe, expect, it } from 'vitest';
import { BIG_OMEM_BYTES } from '../../../app/schemas/clients';
import { parseBufferLimits } from './bufferLimits';
import type { ListedClient } from '../redis/clientList';
import { kindOf, markClient } from './highlights';
import { keepMost, nodeTotals } from './nodeTotals';

const limits = parseBufferLimits('normal 0 0 0 slave 1000 0 0 pubsub 1000 500 60');
const base: ListedClient = {
  id: '1',
  addr: 'a:1',
  name: '',
  user: 'default',
  db: 0,
  cmd: 'get',
  age: 10,
  idle: 0,
  flags: 'N',
  subs: 0,
  qbuf: 0,
  argvMem: 0,
  multiMem: 0,
  omem: 0,
  totMem: 100,
};
const ctx = { limits, idleSeconds: 60, own: new Set(['ours:1']) };
const mark = (c: Partial<ListedClient>, over: Partial<typeof ctx> = {}) => markClient({ ...base, ...c }, { ...ctx, ...over });

describe('highlights', () => {
  it('puts a client in the class Redis holds its output buffer to', () => {
    expect(['N', 'S', 'SO', 'O', 'M', 'P', 'bP'].map(kindOf)).toEqual(['normal', 'replica', 'normal', 'normal', 'master', 'pubsub', 'pubsub']);
  });

  it('marks an output buffer near its class limit, or big in a class with none; none without the limits', () => {
    expect(mark({ flags: 'P', omem: 399 }).marks).toEqual(['pubsub']);
    const near = mark({ flags: 'P', omem: 400 });
    expect(near.marks).toEqual(['omem', 'pubsub']);
    expect(near.limitShare).toBeCloseTo(0.8);
    expect(mark({ flags: 'S', omem: 800 }).marks).toEqual(['omem']);
    expect(mark({ omem: BIG_OMEM_BYTES - 1 }).marks).toEqual([]);
    expect(mark({ omem: BIG_OMEM_BYTES }).marks).toEqual(['omem']);
    expect(mark({ omem: BIG_OMEM_BYTES }).limitShare).toBeUndefined();
    expect(mark({ flags: 'P', omem: 999 }, { limits: undefined }).marks).toEqual(['pubsub']);
  });

  it('marks long idle normal clients only; blocked, MONITOR, subscribers and ours by their flags and name', () => {
    expect(mark({ idle: 60 }).marks).toEqual(['idle']);
    expect(mark({ idle: 59 }).marks).toEqual([]);
    expect(mark({ idle: 600, flags: 'b' }).marks).toEqual(['blocked']);
    expect(mark({ idle: 600, flags: 'O' }).marks).toEqual(['monitor']);
    expect(mark({ idle: 600, subs: 2 }).marks).toEqual(['pubsub']);
    expect(mark({ addr: 'ours:1' }).marks).toEqual(['ours']);
  });

  it('adds a node up by name, user, memory and highlight, and keeps the highlighted and biggest past a cap', () => {
    const rows = [
      mark({ id: '1', name: 'web', totMem: 10, qbuf: 1 }),
      mark({ id: '2', name: 'web', user: 'app', totMem: 50, omem: 5 }),
      mark({ id: '3', idle: 99, totMem: 1 }),
      mark({ id: '4', totMem: 30 }),
    ];
    const t = nodeTotals(rows);
    expect(t.clients).toBe(4);
    expect(t.byName).toEqual([
      { name: '', count: 2 },
      { name: 'web', count: 2 },
    ]);
    expect(t.byUser).toEqual([
      { name: 'default', count: 3 },
      { name: 'app', count: 1 },
    ]);
    expect(t.memory).toEqual({ qbuf: 1, argvMem: 0, multiMem: 0, omem: 5, totMem: 91 });
    expect(t.marks.idle).toBe(1);
    expect(keepMost(rows, 2).map((r) => r.id)).toEqual(['2', '3']);
    expect(keepMost(rows, 9).map((r) => r.id)).toEqual(['1', '2', '3', '4']);
  });
});
