import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppError } from '../../app/errors';
import { WsBridge, wsUrl, type SocketLike } from './wsBridge';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onerror: SocketLike['onerror'] = null;
  send(data: string): void {
    if (this.readyState !== 1) throw new Error('not open');
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code: 1006, reason });
  }
  reply(m: unknown): void {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
}

function setup(maxQueued = 256) {
  const sockets: FakeSocket[] = [];
  const bridge = new WsBridge({
    url: 'ws://test/api/ws',
    createSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    maxQueued,
    initialBackoffMs: 100,
    maxBackoffMs: 1000,
    random: () => 1,
  });
  const last = () => {
    const s = sockets.at(-1);
    if (!s) throw new Error('no socket');
    return s;
  };
  return { bridge, sockets, last };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('WsBridge', () => {
  it('builds the socket URL from the page location', () => {
    expect(wsUrl({ protocol: 'http:', host: 'localhost:7379' })).toBe('ws://localhost:7379/api/ws');
    expect(wsUrl({ protocol: 'https:', host: 'cb.example' })).toBe('wss://cb.example/api/ws');
  });

  it('holds calls made while connecting and sends them on open', async () => {
    const { bridge, last } = setup();
    const p = bridge.invoke('health', {});
    expect(last().sent).toEqual([]);
    last().open();
    expect(last().sent).toEqual([{ t: 'call', id: 'c1', name: 'health', input: {} }]);
    last().reply({ t: 'result', id: 'c1', ok: true, output: { status: 'ok', version: '1' } });
    await expect(p).resolves.toEqual({ status: 'ok', version: '1' });
    expect(bridge.status()).toMatchObject({ state: 'open', epoch: 1 });
  });

  it('refuses a message over the 1 MiB protocol limit before sending it, with the limit named, and stays open', async () => {
    const { bridge, last } = setup();
    last().open();
    const huge = 'é'.repeat(600_000); // 1.2 MB as UTF-8, 600,000 UTF-16 units
    await expect(bridge.invoke('connections.test', { name: huge, host: 'h' } as never)).rejects.toMatchObject({
      code: 'BAD_MESSAGE',
      message: expect.stringContaining('at most 1 MiB'),
    });
    const ended = new Promise<AppError | undefined>((resolve) =>
      bridge.subscribe('connections.state', { pad: huge } as never, { onEvents: () => {}, onEnd: resolve }),
    );
    expect((await ended)?.code).toBe('BAD_MESSAGE');
    expect(last().sent).toEqual([]);
    expect(bridge.status()).toMatchObject({ state: 'open' });
    const p = bridge.invoke('health', {});
    last().reply({ t: 'result', id: 'c3', ok: true, output: { status: 'ok', version: '1' } });
    await expect(p).resolves.toMatchObject({ status: 'ok' });
  });

  it('fails pending calls with DISCONNECTED when the socket drops, then reconnects', async () => {
    const { bridge, sockets, last } = setup();
    last().open();
    const p = bridge.invoke('health', {});
    last().drop('server restarting');
    await expect(p).rejects.toMatchObject({ code: 'DISCONNECTED' });
    expect(bridge.status()).toMatchObject({ state: 'reconnecting', attempt: 1, reason: 'server restarting' });

    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(2);
    last().open();
    expect(bridge.status()).toMatchObject({ state: 'open', epoch: 2, attempt: 0 });
  });

  it('backs off exponentially up to the ceiling', () => {
    const { sockets, last } = setup();
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = sockets.length;
      last().drop();
      let waited = 0;
      while (sockets.length === before) {
        vi.advanceTimersByTime(50);
        waited += 50;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('ends streams on disconnect so their owners can subscribe again', () => {
    const { bridge, last } = setup();
    last().open();
    const ended: (AppError | undefined)[] = [];
    bridge.subscribe('connections.state', {}, { onEvents: () => {}, onEnd: (e) => ended.push(e) });
    last().drop();
    expect(ended).toHaveLength(1);
    expect(ended[0]?.code).toBe('DISCONNECTED');
  });

  it('drops a queued subscription that is cancelled before the socket opens', () => {
    const { bridge, last } = setup();
    const unsub = bridge.subscribe('connections.state', {}, { onEvents: () => {} });
    unsub();
    last().open();
    expect(last().sent).toEqual([]);
  });

  it('refuses calls beyond the outbox bound instead of growing it', async () => {
    const { bridge } = setup(2);
    void bridge.invoke('health', {}).catch(() => {});
    void bridge.invoke('health', {}).catch(() => {});
    await expect(bridge.invoke('health', {})).rejects.toMatchObject({ code: 'DISCONNECTED' });
  });

  it('ignores messages that are not protocol envelopes', async () => {
    const { bridge, last } = setup();
    last().open();
    const p = bridge.invoke('health', {});
    last().onmessage?.({ data: 'not json' });
    last().onmessage?.({ data: JSON.stringify({ hello: 1 }) });
    last().reply({ t: 'result', id: 'c1', ok: false, error: { code: 'FORBIDDEN', message: 'no' } });
    await expect(p).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'no' });
  });

  it('does not reconnect after dispose', () => {
    const { bridge, sockets } = setup();
    bridge.dispose();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
  });
});
