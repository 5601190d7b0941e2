import { describe, expect, it } from 'vitest';
import type { StreamHandlers } from '../../../app/bridge';
import { AppError } from '../../../app/errors';
import type { MonitorEvent, MonitorLine } from '../../../app/schemas/monitor';
import { MonitorSession, type WatchPlan } from './session';
import { MAX_DELAY_MS } from './writeMatcher';

interface Sub {
  input: { profileId: string; address?: string; filter?: unknown };
  handlers: StreamHandlers<MonitorEvent>;
  closed: boolean;
}

function setup() {
  const subs: Sub[] = [];
  const frames: (() => void)[] = [];
  const bridge = {
    subscribe: (_name: string, input: Sub['input'], handlers: StreamHandlers<MonitorEvent>) => {
      const s: Sub = { input, handlers, closed: false };
      subs.push(s);
      return () => {
        s.closed = true;
      };
    },
  };
  const session = new MonitorSession(bridge as never, (run) => frames.push(run), 0);
  const flush = () => frames.splice(0).forEach((f) => f());
  const open = () => subs.filter((s) => !s.closed);
  const of = (address: string) => {
    const s = open().find((x) => x.input.address === address);
    if (s === undefined) throw new Error(`no subscription for ${address}`);
    return s;
  };
  return { session, subs, open, of, flush, frames };
}

const line = (ts: number, command: string, ...args: string[]): MonitorLine => ({
  ts,
  db: 0,
  client: '127.0.0.1:9',
  command,
  args,
  moreArgs: 0,
  truncated: false,
});
const lines = (ls: MonitorLine[], matched = ls.length, dropped = 0): MonitorEvent => ({
  kind: 'lines',
  lines: ls,
  received: matched,
  unparsed: 0,
  filteredOut: 0,
  matched,
  delivered: matched - dropped,
  dropped,
});

const M = '127.0.0.1:7000';
const R = '127.0.0.1:7001';
const plan = (over: Partial<WatchPlan> = {}): WatchPlan => ({
  profileId: 'p',
  nodes: [
    { address: M, role: 'master' },
    { address: R, role: 'slave' },
  ],
  filter: { hideOwn: true },
  running: true,
  generation: '1',
  ...over,
});

describe('MonitorSession', () => {
  it('subscribes one watch per node and keeps counters exactly as sent', () => {
    const { session, open, of } = setup();
    session.sync(plan());
    expect(open().map((s) => s.input.address)).toEqual([M, R]);
    of(M).handlers.onEvents([lines([line(1, 'SET', 'a', '1')], 5, 4)], 0);
    const pane = session.list()[0]!;
    expect(pane.feed.counters).toEqual({ received: 5, unparsed: 0, filteredOut: 0, matched: 5, delivered: 1, dropped: 4 });
    expect(pane.feed.rows.length).toBe(1);
  });

  it('tells listeners once per frame however many batches arrived', () => {
    const { session, of, flush, frames } = setup();
    let heard = 0;
    session.listen(() => heard++);
    session.sync(plan());
    flush();
    for (let i = 0; i < 50; i++) of(M).handlers.onEvents([lines([line(i, 'GET', 'k')])], 0);
    expect(frames).toHaveLength(1);
    flush();
    expect(heard).toBe(2);
    expect(session.getVersion()).toBe(2);
  });

  it('pairs a write on the master with its copy on the replica', () => {
    const { session, of } = setup();
    session.sync(plan());
    // The master's stream has been open longer than the longest delay measured, so no write of the copy was missed.
    of(M).handlers.onEvents([lines([line(0, 'GET', 'k')])], 0);
    of(R).handlers.onEvents([lines([line(MAX_DELAY_MS + 1000.4, 'SET', 'k', 'v')])], 0);
    of(M).handlers.onEvents([lines([line(MAX_DELAY_MS + 1000, 'SET', 'k', 'v'), line(MAX_DELAY_MS + 1001, 'GET', 'k')])], 0);
    const replica = session.list()[1]!;
    expect(replica.delays?.summary()?.latest).toBeCloseTo(0.4);
    expect(session.list()[0]!.delays).toBeUndefined();
  });

  it('re-subscribes when the filter changes, keeping the rows after a note', () => {
    const { session, subs, open, of } = setup();
    session.sync(plan());
    of(M).handlers.onEvents([lines([line(1, 'SET', 'a', '1')])], 0);
    session.sync(plan({ filter: { hideOwn: true, keyGlob: 'user:*' } }));
    expect(subs.filter((s) => s.closed)).toHaveLength(2);
    expect(open().map((s) => s.input.filter)).toEqual([
      { hideOwn: true, keyGlob: 'user:*' },
      { hideOwn: true, keyGlob: 'user:*' },
    ]);
    const pane = session.list()[0]!;
    expect(pane.feed.counters).toBeUndefined();
    const last = pane.feed.rows.last();
    expect(last?.kind === 'mark' && last.text).toContain('keys user:*');
  });

  it('stops without forgetting, drops a pane whose node is no longer picked', () => {
    const { session, open, of } = setup();
    session.sync(plan());
    of(M).handlers.onEvents([lines([line(1, 'SET', 'a', '1')])], 0);
    session.sync(plan({ running: false }));
    expect(open()).toHaveLength(0);
    expect(session.list()[0]!.feed.rows.length).toBe(1);
    expect(session.list()[0]!.feed.state).toBe('stopped');
    session.sync(plan({ running: false, nodes: [{ address: M, role: 'master' }] }));
    expect(session.list().map((p) => p.address)).toEqual([M]);
  });

  it('freezes the view while paused; lines and counters keep arriving', () => {
    const { session, of } = setup();
    session.sync(plan());
    of(M).handlers.onEvents([lines([line(1, 'SET', 'a', '1')])], 0);
    session.pause();
    of(M).handlers.onEvents([lines([line(2, 'SET', 'b', '1')], 2)], 0);
    const pane = session.list()[0]!;
    expect(session.view(pane, '').length).toBe(1);
    expect(pane.feed.rows.length).toBe(2);
    expect(pane.feed.counters?.matched).toBe(2);
    session.resume();
    expect(session.view(pane, '').length).toBe(2);
    expect(session.view(pane, 'b').length).toBe(1);
  });

  it('keeps the end: the session limit message, or the error', () => {
    const { session, of } = setup();
    session.sync(plan());
    of(M).handlers.onEvents([{ kind: 'ended', message: 'MONITOR stopped after 10 min' }], 0);
    of(M).handlers.onEnd?.();
    of(R).handlers.onEnd?.(new AppError('FORBIDDEN', 'NOPERM'));
    const [m, r] = session.list();
    expect(m?.feed.ended).toContain('10 min');
    expect(m?.live).toBe(false);
    expect(r?.feed.error?.code).toBe('FORBIDDEN');
    // The same plan does not subscribe again by itself; a new generation does.
    session.sync(plan());
    expect(m?.live).toBe(false);
    session.sync(plan({ generation: '2' }));
    expect(m?.live).toBe(true);
    expect(m?.feed.ended).toBeUndefined();
  });

  it('unsubscribes on dispose and subscribes again on the next sync', () => {
    const { session, open } = setup();
    session.sync(plan());
    session.dispose();
    expect(open()).toHaveLength(0);
    session.sync(plan());
    expect(open()).toHaveLength(2);
  });

  it('renders at most once per gap, on the frame after it', async () => {
    const frames: (() => void)[] = [];
    const session = new MonitorSession({ subscribe: () => () => {} }, (run) => frames.push(run), 30);
    let heard = 0;
    session.listen(() => heard++);
    session.pause();
    frames.splice(0).forEach((f) => f());
    session.resume();
    expect(frames).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 40));
    frames.splice(0).forEach((f) => f());
    expect(heard).toBe(2);
  });
});
