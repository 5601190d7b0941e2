import { describe, expect, it } from 'vitest';
import type { PubSubMessage } from '../../../app/schemas/pubsub';
import { exportName, matches, toNdjson } from './exportMessages';
import { HELD_CHARS, PubSubFeed } from './feed';

const msg = (payload: string, channel = 'news'): PubSubMessage => ({
  at: 1_700_000_000_000,
  node: '127.0.0.1:6379',
  kind: 'message',
  channel: { text: channel, bytes: channel.length, truncated: false },
  payload: { text: payload, bytes: payload.length, truncated: false },
});

describe('PubSubFeed', () => {
  it('keeps the counters as the server sent them and rates from two stats events', () => {
    const f = new PubSubFeed();
    f.apply({ kind: 'messages', messages: [msg('a'), msg('b')], received: 5, delivered: 2, dropped: 3 });
    expect(f.counters).toEqual({ received: 5, delivered: 2, dropped: 3 });
    f.apply({ kind: 'stats', at: 1000, received: 5, delivered: 2, dropped: 3 });
    f.apply({ kind: 'stats', at: 3000, received: 105, delivered: 42, dropped: 63 });
    expect(f.rates.toArray()).toEqual([{ t: 3000, received: 50, delivered: 20 }]);
  });

  it('holds at most HELD_CHARS of text, dropping the oldest messages first', () => {
    const f = new PubSubFeed();
    const big = 'x'.repeat(4096);
    const n = Math.ceil(HELD_CHARS / 4100) + 50;
    for (let i = 0; i < n; i++) f.apply({ kind: 'messages', messages: [msg(big, `c${i}`)], received: i + 1, delivered: i + 1, dropped: 0 });
    const rows = f.rows.toArray();
    expect(rows.length).toBeLessThan(n);
    expect(rows.reduce((s, r) => s + (r.kind === 'message' ? r.m.payload.text.length + r.m.channel.text.length : 0), 0)).toBeLessThanOrEqual(HELD_CHARS);
    const last = rows.at(-1);
    expect(last?.kind === 'message' ? last.m.channel.text : undefined).toBe(`c${n - 1}`);
  });

  it('is live once every planned node is, and marks a gap in the list', () => {
    const f = new PubSubFeed();
    f.apply({
      kind: 'plan',
      nodes: [
        { address: 'a:1', channels: [], patterns: [], shardChannels: [] },
        { address: 'b:2', channels: [], patterns: [], shardChannels: [] },
      ],
    });
    f.apply({ kind: 'state', address: 'a:1', state: 'live' });
    expect(f.live).toBe(false);
    f.apply({ kind: 'state', address: 'b:2', state: 'live' });
    expect(f.live).toBe(true);
    f.apply({ kind: 'gap', address: 'a:1', from: 0, to: 1000, reason: 'connection to a:1 closed' });
    expect(f.rows.last()).toMatchObject({ kind: 'mark', text: expect.stringContaining('no messages from a:1') });
  });
});

describe('export and filter', () => {
  it('writes one JSON object a line, notes included', () => {
    const f = new PubSubFeed();
    f.apply({ kind: 'messages', messages: [msg('<img src=x onerror=alert(1)>')], received: 1, delivered: 1, dropped: 0 });
    f.mark('— subscribed again —');
    const lines = toNdjson(f.rows.toArray())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(lines).toEqual([msg('<img src=x onerror=alert(1)>'), { note: '— subscribed again —' }]);
    expect(exportName('Prod cache/1', new Date(2026, 0, 2, 9, 30, 0))).toBe('pubsub-Prod_cache_1-20260102-093000.ndjson');
  });

  it('filters on channel, pattern and payload, case-insensitively', () => {
    const row = { kind: 'message' as const, seq: 0, m: { ...msg('Order 42', 'shop.eu'), pattern: { text: 'shop.*', bytes: 6, truncated: false } } };
    expect(['order', 'EU', 'shop.*'].map((q) => matches(row, q))).toEqual([true, true, true]);
    expect(matches(row, 'us')).toBe(false);
  });
});
