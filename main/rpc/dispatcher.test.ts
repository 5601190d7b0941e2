import { describe, expect, it } from 'vitest';
import { contract, type Name } from '../../app/contract';
import { AppError } from '../../app/errors';
import { ProfileId } from '../../app/schemas/common';
import { RpcClient } from '../../app/rpcClient';
import type { ServerMessage } from '../../app/wire';
import { CallRateLimit } from './callRateLimit';
import { Dispatcher, type Refusal } from './dispatcher';
import type { Handlers, StreamSink } from './handlers';
import { createMemoryWirePair } from './wireTestKit';
import type { Session } from './session';

const view = {
  id: ProfileId.parse('p1'),
  name: 'one',
  host: '127.0.0.1',
  port: 6379,
  db: 0,
  hasPassword: true,
  tls: { enabled: false, rejectUnauthorized: true },
  source: 'user' as const,
  analystAccess: 'shared' as const,
  hasAnalystPassword: false,
  definitionLocked: false,
  readOnlyData: false,
};

interface Harness {
  client: RpcClient;
  raw: ServerMessage[];
  sendRaw(text: string): void;
  close(): void;
  setCongested(v: boolean): void;
  producer: { sink: StreamSink<unknown> | null; cleanups: number };
}

function harness(session: Session, overrides: Partial<Handlers> = {}, opts = {}): Harness {
  const producer: Harness['producer'] = { sink: null, cleanups: 0 };
  // Entries a test doesn't exercise refuse loudly, so the map covers the whole contract.
  const unused = Object.fromEntries(
    (Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]),
  ) as unknown as Handlers;
  const handlers: Handlers = {
    ...unused,
    health: () => ({ status: 'ok', version: '9.9.9' }),
    'connections.list': () => ({ profiles: [view], passwordStorage: { available: true } }),
    // Returns a password the contract does not name: the dispatcher must strip it.
    'connections.add': (spec) => ({ ...view, name: spec.name, password: spec.password }) as typeof view,
    'connections.update': () => view,
    'connections.remove': () => ({ removed: true }),
    'connections.test': () => ({ ok: true, latencyMs: 1 }),
    'server.info': () => {
      throw new Error('socket hang up');
    },
    'connections.state': (_args, sink) => {
      producer.sink = sink as StreamSink<unknown>;
      return () => {
        producer.cleanups += 1;
      };
    },
    ...overrides,
  };
  const dispatcher = new Dispatcher(handlers, {
    streamIntervalMs: 20,
    streamCapacity: 100,
    log: () => {},
    mapError: (e) => (e instanceof Error && /hang up/.test(e.message) ? new AppError('DISCONNECTED', 'gone') : undefined),
    ...opts,
  });
  const { server, client: end } = createMemoryWirePair();
  dispatcher.attach(server, session);
  const client = new RpcClient((m) => end.send(m));
  const raw: ServerMessage[] = [];
  end.onMessage((m) => {
    raw.push(m);
    client.receive(m);
  });
  return { client, raw, sendRaw: (t) => end.send(t), close: () => end.close(), setCongested: end.setCongested, producer };
}

const ops: Session = { role: 'ops' };
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
const state = (i: number) => ({ profileId: 'p1', state: 'ready', at: i });

/** Subscribes and tallies delivered events and the running drop total the server reports. */
async function countingSubscriber(h: Harness) {
  const count = { delivered: 0, dropped: 0 };
  h.client.subscribe(
    'connections.state',
    {},
    {
      onEvents: (e, d) => {
        count.delivered += e.length;
        count.dropped = d;
      },
    },
  );
  await tick(5);
  return count;
}

describe('dispatcher over the in-memory wire', () => {
  it('returns a call result through serialisation', async () => {
    const h = harness(ops);
    await expect(h.client.invoke('health', {})).resolves.toEqual({ status: 'ok', version: '9.9.9' });
  });

  it('refuses calls beyond the per-user rate with RATE_LIMITED, before the handler runs', async () => {
    let now = 0;
    const rateLimit = new CallRateLimit({ perSecond: 1, burst: 2, now: () => now });
    const h = harness({ role: 'analyst', user: 'ana' }, {}, { rateLimit });
    await expect(h.client.invoke('health', {})).resolves.toMatchObject({ status: 'ok' });
    await expect(h.client.invoke('health', {})).resolves.toMatchObject({ status: 'ok' });
    await expect(h.client.invoke('health', {})).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    now = 1000;
    await expect(h.client.invoke('health', {})).resolves.toMatchObject({ status: 'ok' });
  });

  it("refuses a call above the session's role in a person's words, reports the attempt, and counts it against the rate", async () => {
    const refused: Refusal[] = [];
    const rateLimit = new CallRateLimit({ perSecond: 1, burst: 1, now: () => 0 });
    const h = harness({ role: 'analyst', user: 'ana' }, {}, { rateLimit, onRefused: (r: Refusal) => refused.push(r) });
    const input = { profileId: 'p1', address: 'h:1', action: 'bgsave' as const };
    await expect(h.client.invoke('metrics.action', input)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only ops users can do this; you are signed in as analyst.',
    });
    expect(refused.map((r) => ({ name: r.name, user: r.session.user, input: r.input }))).toEqual([{ name: 'metrics.action', user: 'ana', input }]);
    // A refusal is written to the audit log: a flood of them is rate limited like any call.
    await expect(h.client.invoke('metrics.action', input)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused).toHaveLength(1);
  });

  it('rejects invalid input with an error naming the field', async () => {
    const h = harness(ops);
    const err = await h.client.invoke('connections.add', { name: 'x', host: 'h', port: 70000 }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('VALIDATION');
    expect(err.field).toBe('port');
    expect(err.message).toContain('port');
  });

  it('reports a malformed redis URL on the url field', async () => {
    const h = harness(ops);
    const err = await h.client.invoke('connections.add', { name: 'x', url: 'http://nope' }).catch((e) => e);
    expect(err.field).toBe('url');
  });

  it('strips fields the output schema does not name, so secrets cannot leak', async () => {
    const h = harness(ops);
    const out = await h.client.invoke('connections.add', { name: 'n', host: 'h', password: 'hunter2' });
    expect(out.name).toBe('n');
    expect(JSON.stringify(h.raw)).not.toContain('hunter2');
  });

  it('maps domain errors and hides unknown ones', async () => {
    const h = harness(ops, { health: () => Promise.reject(new Error('secret detail')) });
    const mapped = await h.client.invoke('server.info', { profileId: 'p1' }).catch((e) => e);
    expect(mapped.code).toBe('DISCONNECTED');
    const hidden = await h.client.invoke('health', {}).catch((e) => e);
    expect(hidden.code).toBe('INTERNAL');
    expect(hidden.message).not.toContain('secret detail');
  });

  it('refuses unknown names', async () => {
    const h = harness(ops);
    const err = await h.client.invoke('nope.nothing' as 'health', {}).catch((e) => e);
    expect(err.code).toBe('UNKNOWN_CALL');
  });

  it('answers malformed messages with an error and keeps serving', async () => {
    const h = harness(ops);
    h.sendRaw('{not json');
    h.sendRaw(JSON.stringify({ t: 'call', id: 'x1' }));
    h.sendRaw(JSON.stringify({ t: 'bogus' }));
    h.sendRaw(JSON.stringify(null));
    await tick(5);
    const errors = h.raw.filter((m) => m.t === 'error' || (m.t === 'result' && !m.ok));
    expect(errors).toHaveLength(4);
    expect(h.raw.find((m) => m.t === 'result' && m.id === 'x1')).toBeTruthy();
    await expect(h.client.invoke('health', {})).resolves.toMatchObject({ status: 'ok' });
  });
});

describe('roles, enumerated over the whole contract', () => {
  const names = Object.keys(contract) as Name[];
  const inputFor = () => ({});

  /** Calls are invoked and streams subscribed: either way the refusal must come back as an error code. */
  const refusal = async (session: Session, name: Name, input: unknown) => {
    const h = harness(session);
    if (contract[name].kind === 'call') {
      const err = await h.client.invoke(name as 'health', input as Record<string, never>).catch((e) => e);
      return (err as AppError | undefined)?.code;
    }
    const ended = new Promise<AppError | undefined>((resolve) =>
      h.client.subscribe(name as 'connections.state', input as Record<string, never>, { onEvents: () => {}, onEnd: resolve }),
    );
    return (await ended)?.code;
  };

  it.each(names)('%s is refused without a session', async (name) => {
    expect(await refusal({ role: null }, name, inputFor())).toBe('UNAUTHENTICATED');
  });

  const opsOnly = names.filter((n) => contract[n].role === 'ops');
  it('has ops-only calls and streams to check', () => expect(opsOnly.length).toBeGreaterThan(0));
  it.each(opsOnly)('%s is refused for an analyst', async (name) => {
    expect(await refusal({ role: 'analyst' }, name, { id: 'p1' })).toBe('FORBIDDEN');
  });
});

describe('streams', () => {
  it('delivers events in batches, at most one per interval', async () => {
    const h = harness(ops);
    const batches: unknown[][] = [];
    h.client.subscribe('connections.state', {}, { onEvents: (e) => batches.push(e) });
    await tick(5);
    for (let i = 0; i < 50; i++) h.producer.sink?.push(state(i));
    await tick(10);
    for (let i = 50; i < 60; i++) h.producer.sink?.push(state(i));
    await tick(60);
    expect(batches.flat()).toHaveLength(60);
    expect(batches.length).toBeLessThan(60);
    const batchMsgs = h.raw.filter((m) => m.t === 'batch');
    expect(batchMsgs.length).toBe(batches.length);
  });

  it('bounds the queue and counts every dropped event exactly', async () => {
    const h = harness(ops);
    const count = await countingSubscriber(h);
    const total = 10_000;
    for (let i = 0; i < total; i++) h.producer.sink?.push(state(i));
    await tick(60);
    expect(count.dropped).toBeGreaterThan(0);
    expect(count.delivered).toBeLessThanOrEqual(100);
    expect(count.delivered + count.dropped).toBe(total);
  });

  it('holds back and drops while the transport is congested, then reports the count', async () => {
    const h = harness(ops);
    const count = await countingSubscriber(h);
    h.setCongested(true);
    for (let i = 0; i < 500; i++) h.producer.sink?.push(state(i));
    await tick(60);
    expect(count.delivered).toBe(0);
    h.setCongested(false);
    await tick(60);
    expect(count.delivered).toBe(100);
    expect(count.delivered + count.dropped).toBe(500);
  });

  it('runs the cleanup on unsubscribe and when the wire closes', async () => {
    const h = harness(ops);
    const off = h.client.subscribe('connections.state', {}, { onEvents: () => {} });
    await tick(5);
    off();
    await tick(5);
    expect(h.producer.cleanups).toBe(1);
    h.client.subscribe('connections.state', {}, { onEvents: () => {} });
    await tick(5);
    h.close();
    expect(h.producer.cleanups).toBe(2);
  });

  it('a server-side end reaches the client with its error', async () => {
    const h = harness(ops);
    const ended = new Promise<AppError | undefined>((resolve) => h.client.subscribe('connections.state', {}, { onEvents: () => {}, onEnd: resolve }));
    await tick(5);
    h.producer.sink?.end(new AppError('UNREACHABLE', 'down'));
    expect((await ended)?.code).toBe('UNREACHABLE');
  });

  it('drops events that fail the event schema instead of forwarding them', async () => {
    const h = harness(ops);
    const got: unknown[] = [];
    h.client.subscribe('connections.state', {}, { onEvents: (e) => got.push(...e) });
    await tick(5);
    h.producer.sink?.push({ profileId: 'p1', state: 'exploded', at: 1 });
    h.producer.sink?.push(state(2));
    await tick(40);
    expect(got).toEqual([state(2)]);
  });
});

describe('limits', () => {
  it('answers a message over the protocol limit on its id, and keeps serving', async () => {
    const h = harness(ops, {}, { maxMessageBytes: 1000 });
    await expect(h.client.invoke('connections.test', { name: 'x', host: 'h'.repeat(2000) } as never)).rejects.toMatchObject({
      code: 'BAD_MESSAGE',
      message: expect.stringMatching(/the largest handled is 1000 bytes/),
    });
    const ended = new Promise<AppError | undefined>((resolve) =>
      h.client.subscribe('connections.state', { pad: 'p'.repeat(2000) } as never, { onEvents: () => {}, onEnd: resolve }),
    );
    expect((await ended)?.code).toBe('BAD_MESSAGE');
    h.sendRaw(` ${'x'.repeat(2000)}`);
    await tick(5);
    expect(h.raw.filter((m) => m.t === 'error')).toHaveLength(1);
    await expect(h.client.invoke('health', {})).resolves.toMatchObject({ status: 'ok' });
  });

  /** One dispatcher, several connections, small caps. */
  function connections(limits = { perSocket: 3, perUser: 4 }) {
    const handlers = { 'connections.state': () => () => {} } as unknown as Handlers;
    const dispatcher = new Dispatcher(handlers, { subscriptionLimits: limits, log: () => {} });
    return (session: Session) => {
      const { server, client: end } = createMemoryWirePair();
      dispatcher.attach(server, session);
      const client = new RpcClient((m) => end.send(m));
      end.onMessage((m) => client.receive(m));
      /** Subscribes; resolves with the refusal's error, or undefined once it is still live a moment later. */
      const sub = () =>
        new Promise<{ error: AppError | undefined; off: () => void }>((resolve) => {
          const off = client.subscribe('connections.state', {}, { onEvents: () => {}, onEnd: (error) => resolve({ error, off }) });
          setTimeout(() => resolve({ error: undefined, off }), 10);
        });
      return { sub, close: () => end.close() };
    };
  }

  it('refuses subscriptions past the per-connection cap with the cap and the count, and an unsubscribe frees a slot', async () => {
    const a = connections()({ role: 'analyst', user: 'ana' });
    const live = [await a.sub(), await a.sub(), await a.sub()];
    expect(live.map((s) => s.error)).toEqual([undefined, undefined, undefined]);
    const over = await a.sub();
    expect(over.error).toMatchObject({ code: 'TOO_MANY_SUBSCRIPTIONS', message: expect.stringContaining('already has 3 live subscriptions') });
    expect(over.error?.message).toContain('(3)');
    live[0]?.off();
    expect((await a.sub()).error).toBeUndefined();
  });

  it("refuses past the per-user cap across that user's connections; another user and a closed connection free up", async () => {
    const as = connections();
    const tab1 = as({ role: 'analyst', user: 'ana' });
    const tab2 = as({ role: 'analyst', user: 'ana' });
    for (let i = 0; i < 3; i++) expect((await tab1.sub()).error).toBeUndefined();
    expect((await tab2.sub()).error).toBeUndefined();
    const over = await tab2.sub();
    expect(over.error).toMatchObject({ code: 'TOO_MANY_SUBSCRIPTIONS', message: expect.stringContaining('already have 4 live subscriptions') });
    expect(over.error?.message).toContain('(4)');
    expect((await as({ role: 'analyst', user: 'bob' }).sub()).error).toBeUndefined();
    tab1.close();
    expect((await tab2.sub()).error).toBeUndefined();
  });
});
