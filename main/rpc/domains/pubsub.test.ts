import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { publishFlood } from '../../../testing/traffic';
import { b64, pubsubRpc, type PubSubRpc, type Watch } from './pubsubRpcTestKit';

const redis = useRedis();
let rpc: PubSubRpc;
const others: Redis[] = [];

beforeAll(() => {
  rpc = pubsubRpc([{ id: 'local', source: 'config', spec: specFor(redis()) }]);
});
afterAll(async () => {
  for (const r of others) r.disconnect();
  await rpc.close();
  await closeAdmins();
});

const live = (w: Watch) => eventually(() => w.live(), 5000);

/** A subscriber that is not Cacheboard's. */
async function outsider(...channels: string[]): Promise<Redis> {
  const r = new Redis({ host: redis().host, port: redis().port, lazyConnect: true });
  others.push(r);
  await r.connect();
  await r.subscribe(...channels);
  return r;
}

describe('pubsub over the dispatcher', () => {
  it('an analyst subscribes and reads the overview, and is refused publish by our server (FORBIDDEN, on the record)', async () => {
    const w = rpc.watch('analyst', { profileId: 'local', channels: [b64('for-analysts')] });
    await live(w);
    const admin = await adminClient(redis());
    await admin.publish('for-analysts', 'hello');
    expect(await eventually(() => w.of('messages').some((m) => m.messages.length > 0))).toBe(true);
    expect(w.of('messages').flatMap((m) => m.messages)[0]).toMatchObject({
      kind: 'message',
      channel: { text: 'for-analysts' },
      payload: { text: 'hello', bytes: 5 },
    });
    expect((await rpc.as('analyst').invoke('pubsub.overview', { profileId: 'local' })).topology).toBe('standalone');

    await expect(rpc.as('analyst').invoke('pubsub.publish', { profileId: 'local', channel: b64('for-analysts'), payload: b64('nope') })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(rpc.audit().filter((e) => e.action === 'pubsub.publish' && e.outcome === 'refused')).toHaveLength(1);
    // Nothing reached Redis: the one message the viewer got is the admin's.
    await new Promise((r) => setTimeout(r, 200));
    expect(w.of('messages').flatMap((m) => m.messages)).toHaveLength(1);
    w.stop();
  });

  it('a subscription is on the record as one run: who listened to which channels and patterns, and for how long', async () => {
    const w = rpc.watch('analyst', { profileId: 'local', channels: [b64('audited-channel')], patterns: [b64('audited:*')] });
    await live(w);
    const rows = () => rpc.audit().filter((e) => e.action === 'pubsub.subscribe' && (e.detail ?? '').includes('audited-channel'));
    expect(rows().map((e) => e.outcome)).toEqual(['started']);
    w.stop();
    expect(await eventually(() => rows().length === 2)).toBe(true);
    const [start, end] = rows();
    expect(end).toMatchObject({ outcome: 'ok', run: start?.run, detail: 'channels "audited-channel"; patterns "audited:*"' });
    expect(end?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('ops publish and get the receiver count Redis gives; the audit log names the channel, never the payload', async () => {
    await outsider('orders');
    const w = rpc.watch('ops', { profileId: 'local', channels: [b64('orders')] });
    await live(w);
    const out = await rpc.as('ops').invoke('pubsub.publish', { profileId: 'local', channel: b64('orders'), payload: b64('secret-payload-42') });
    expect(out).toMatchObject({ command: 'PUBLISH', node: `${redis().host}:${redis().port}`, receivers: 2, countedOn: 'server' });
    const entry = rpc.audit().find((e) => e.action === 'pubsub.publish' && e.outcome === 'ok');
    expect(entry).toMatchObject({
      detail: 'channel "orders"',
      figures: [
        { n: 17, unit: 'bytes' },
        { n: 2, unit: 'receivers' },
      ],
    });
    expect(JSON.stringify(rpc.audit())).not.toContain('secret-payload-42');
    w.stop();
  });

  it('the overview counts every channel on the node and flags those nobody but Cacheboard consumes', async () => {
    await outsider('busy');
    const w = rpc.watch('ops', { profileId: 'local', channels: [b64('lonely')], patterns: [b64('pat:*')] });
    await live(w);
    const o = await rpc.as('ops').invoke('pubsub.overview', { profileId: 'local', check: [{ channel: b64('nobody') }] });
    const row = (name: string) => o.channels.find((c) => c.name.text === name);
    expect(row('busy')).toMatchObject({ total: 1, ours: 0, noSubscriber: false, asked: false });
    expect(row('lonely')).toMatchObject({ total: 1, ours: 1, noSubscriber: true });
    expect(row('nobody')).toMatchObject({ total: 0, ours: 0, noSubscriber: true, asked: true, perNode: [0] });
    expect(o.nodes).toEqual([expect.objectContaining({ address: `${redis().host}:${redis().port}`, up: true, numpat: 1, more: 0 })]);
    w.stop();
  });

  it('refuses bad input with the field named', async () => {
    const sub = (input: Record<string, unknown>) =>
      new Promise<unknown>((resolve) => {
        rpc.as('ops').subscribe('pubsub.subscribe', input as never, { onEvents: () => undefined, onEnd: (e) => resolve(e) });
      });
    expect(await sub({ profileId: 'local' })).toMatchObject({ code: 'VALIDATION', message: 'channels: name at least one channel, pattern or shard channel' });
    expect(await sub({ profileId: 'local', channels: ['not base64!'] })).toMatchObject({ code: 'VALIDATION', field: 'channels.0' });
    expect(await sub({ profileId: 'local', patterns: [b64('p'.repeat(257))] })).toMatchObject({ message: 'patterns.0: a pattern must be at most 256 bytes' });
    expect(await sub({ profileId: 'local', channels: Array.from({ length: 101 }, (_, i) => b64(`c${i}`)) })).toMatchObject({
      message: 'channels: at most 100 channels in one subscription',
    });
    await expect(rpc.as('ops').invoke('pubsub.publish', { profileId: 'local', channel: '', payload: '' })).rejects.toMatchObject({
      message: 'channel: a channel name must not be empty',
    });
  });

  it('a page on a congested link loses messages, never counts: received = delivered + dropped, and it got exactly `delivered`', async () => {
    const { client, wire } = rpc.congestible('ops');
    const w = rpc.watch('ops', { profileId: 'local', channels: [b64('firehose')] }, client);
    await live(w);
    // Congested half of each 100 ms, as a slow browser tab would be.
    let on = false;
    const flip = setInterval(() => wire.setCongested((on = !on)), 50);
    const n = 200_000;
    try {
      const flood = await publishFlood(redis(), { channel: 'firehose', count: n, perSecond: 100_000 });
      expect(flood.receivers).toBe(n);
    } finally {
      clearInterval(flip);
      wire.setCongested(false);
    }
    expect(await eventually(() => w.of('stats').at(-1)?.received === n, 15_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const last = w.of('stats').at(-1)!;
    const got = w.of('messages').reduce((sum, m) => sum + m.messages.length, 0);
    expect(last.delivered + last.dropped).toBe(n);
    expect(got).toBe(last.delivered);
    expect(last.dropped).toBeGreaterThan(0);
    console.log(`congested page: ${JSON.stringify(last)}, ${got} messages arrived`);
    w.stop();
  });
});
