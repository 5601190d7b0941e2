import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerMessage } from '../../app/wire';
import { startServe, type ServeProcess } from '../../e2e/serveProcess';
import { eventually, useRedis } from '../../testing/redis';
import { BACKLOG_CLOSE_CODE } from './wsWire';

const redis = useRedis();
/** The bound serve is started with: a few replies' worth, so the test stays short. */
const BOUND = 8 << 20;
let serve: ServeProcess;

/** serve's resident memory now, from /proc (bytes). */
function rss(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

beforeAll(async () => {
  serve = await startServe({ REDIS_URL: redis().url, CACHEBOARD_WS_BUFFER_MB: String(BOUND >> 20) });
}, 60_000);

afterAll(async () => {
  await serve?.stop();
});

describe('a WebSocket client that stops reading', () => {
  it(`is closed with ${BACKLOG_CLOSE_CODE} once serve holds its bound of unsent replies, and serve's memory stays within the bound meanwhile`, async () => {
    const ws = new WebSocket(`${serve.url.replace('http', 'ws')}/api/ws`);
    const got: ServerMessage[] = [];
    ws.on('message', (d) => got.push(JSON.parse(String(d)) as ServerMessage));
    await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    let n = 0;
    const call = (name: string, input: unknown): string => {
      const id = `c${++n}`;
      ws.send(JSON.stringify({ t: 'call', id, name, input }));
      return id;
    };
    // Call results, not stream batches: streams already held back for a congested socket.
    // One answered while the client reads: the baseline is serve once it has answered one.
    const first = call('console.catalog', { profileId: 'env' });
    expect(await eventually(() => got.some((m) => m.t === 'result' && m.id === first), 20_000)).toBe(true);
    const reply = got.find((m) => m.t === 'result' && m.id === first);
    expect(reply?.t === 'result' && reply.ok).toBe(true);
    const replyBytes = Buffer.byteLength(JSON.stringify(reply));
    const baseline = rss(serve.pid);

    // The client stops reading and asks on, within the rate limit (a burst, then 45 a second),
    // for ten times the bound in replies: unbounded, serve held them all (~100 MB more here).
    const socket = (ws as unknown as { _socket: Socket })._socket;
    socket.pause();
    const logged = () => serve.output().includes(`WebSocket closed (${BACKLOG_CLOSE_CODE})`);
    const calls = Math.ceil((10 * BOUND) / replyBytes);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(serve.pid))), 20);
    try {
      for (let i = 0; i < calls; i++) {
        call('console.catalog', { profileId: 'env' });
        if (i >= 150) await new Promise((r) => setTimeout(r, 22));
      }
      // serve says so in its log; then the client reads again and finds the close frame after what was sent.
      expect(await eventually(logged, 20_000)).toBe(true);
    } finally {
      clearInterval(sampler);
      socket.resume();
    }
    const { code, reason } = await closed;
    expect(code).toBe(BACKLOG_CLOSE_CODE);
    expect(reason).toMatch(/read too slowly/);
    // The bound, plus the heap's garbage from the replies built before the close (~20-40 MB here).
    expect(peak - baseline).toBeLessThan(BOUND + (40 << 20));
  }, 90_000);
});
