import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MAX_MESSAGE_BYTES, type ServerMessage } from '../../app/wire';
import { upgradeStatus } from '../../testing/http';
import { useRedis } from '../../testing/redis';
import { noSecretBox } from '../core/pool/noSecretBox';
import { createRuntime, type Runtime } from '../runtime';
import { listenWebServer } from './webServerTestKit';
import { MAX_FRAME_BYTES } from './wsWire';

const redis = useRedis();
let runtime: Runtime;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  runtime = await createRuntime({
    dataDir: mkdtempSync(join(tmpdir(), 'cb-web-')),
    secretBox: noSecretBox('tests store no passwords'),
    redisUrl: redis().url,
    uploadLimitBytes: 4096,
  });
  ({ app, base } = await listenWebServer(runtime));
});

afterAll(async () => {
  await app.close();
  await runtime.close();
});

/** A WebSocket client that collects every server message. */
async function connect(headers: Record<string, string> = {}) {
  const ws = new WebSocket(`ws://${base}/api/ws`, { headers });
  const got: ServerMessage[] = [];
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (d) => got.push(JSON.parse(String(d)) as ServerMessage));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = async (pred: (m: ServerMessage) => boolean, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = got.find(pred);
      if (m) return m;
      if (Date.now() > deadline) throw new Error(`no matching message; got ${JSON.stringify(got)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { ws, got, next, closed };
}

describe('web server', () => {
  it('answers GET /api/health with status and version', async () => {
    const res = await fetch(`http://${base}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', version: runtime.version });
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('serves calls over /api/ws against the real server', async () => {
    const c = await connect();
    c.ws.send(JSON.stringify({ t: 'call', id: 'a', name: 'server.info', input: { profileId: 'env' } }));
    const m = await c.next((x) => x.t === 'result' && x.id === 'a');
    expect(m).toMatchObject({ ok: true });
    const out = (m as { output: { server: { tcpPort: number } } }).output;
    expect(out.server.tcpPort).toBe(redis().port);
    c.ws.close();
  });

  it('answers malformed messages with errors and keeps the socket and server up', async () => {
    const c = await connect();
    c.ws.send('{{{ not json');
    c.ws.send(JSON.stringify({ t: 'call', id: 'b' }));
    c.ws.send(Buffer.from([0xff, 0x00, 0x13]), { binary: true });
    c.ws.send(JSON.stringify({ t: 'call', id: 'c', name: 'connections.add', input: { name: 'x', host: 'h', port: 0 } }));
    await c.next((x) => x.t === 'result' && x.id === 'c');
    expect(c.got.filter((x) => x.t === 'error')).toHaveLength(2);
    expect(c.got.find((x) => x.t === 'result' && x.id === 'b')).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE' } });
    expect(c.got.find((x) => x.t === 'result' && x.id === 'c')).toMatchObject({ ok: false, error: { code: 'VALIDATION', field: 'port' } });
    c.ws.send(JSON.stringify({ t: 'call', id: 'd', name: 'health', input: {} }));
    expect(await c.next((x) => x.t === 'result' && x.id === 'd')).toMatchObject({ ok: true });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it('answers a message over the 1 MiB protocol limit with an error on its id, and the socket stays usable', async () => {
    const c = await connect();
    const call = JSON.stringify({ t: 'call', id: 'big', name: 'health', input: { pad: 'x'.repeat(1_100_000) } });
    expect(call.length).toBeGreaterThan(MAX_MESSAGE_BYTES);
    c.ws.send(call);
    const refused = await c.next((x) => x.t === 'result' && x.id === 'big');
    expect(refused).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE', message: expect.stringContaining('the largest handled is 1 MiB') } });
    c.ws.send(JSON.stringify({ t: 'sub', id: 'bigsub', name: 'connections.state', input: { pad: 'y'.repeat(1_100_000) } }));
    expect(await c.next((x) => x.t === 'end' && x.id === 'bigsub')).toMatchObject({ error: { code: 'BAD_MESSAGE' } });
    c.ws.send(JSON.stringify({ t: 'call', id: 'after', name: 'health', input: {} }));
    expect(await c.next((x) => x.t === 'result' && x.id === 'after')).toMatchObject({ ok: true });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it('closes with 1009 a frame over the 16 MiB hard cap, and the server keeps serving', async () => {
    const c = await connect();
    c.ws.send(Buffer.alloc(MAX_FRAME_BYTES + 1, 0x20), { binary: false });
    expect(await c.closed).toBe(1009);
    expect(c.got).toEqual([]);
    const res = await fetch(`http://${base}/api/health`);
    expect(res.status).toBe(200);
  });

  describe('subscription caps (64 per connection, 256 per user)', () => {
    const sub = (id: string) => JSON.stringify({ t: 'sub', id, name: 'connections.state', input: {} });
    /** Opens n subscriptions on c and waits until each has delivered its first batch. */
    const open = async (c: Awaited<ReturnType<typeof connect>>, prefix: string, n: number) => {
      for (let i = 0; i < n; i++) c.ws.send(sub(`${prefix}${i}`));
      for (let i = 0; i < n; i++) await c.next((x) => x.t === 'batch' && x.id === `${prefix}${i}`);
    };

    it('refuses a subscription past the per-connection cap, naming it, until one is ended', async () => {
      const c = await connect();
      await open(c, 's', 64);
      c.ws.send(sub('over'));
      const refused = await c.next((x) => x.t === 'end' && x.id === 'over');
      expect(refused).toMatchObject({ error: { code: 'TOO_MANY_SUBSCRIPTIONS', message: expect.stringMatching(/already has 64 live subscriptions.*\(64\)/) } });
      c.ws.send(JSON.stringify({ t: 'unsub', id: 's0' }));
      c.ws.send(sub('again'));
      expect(await c.next((x) => (x.t === 'batch' || x.t === 'end') && x.id === 'again')).toMatchObject({ t: 'batch' });
      c.ws.close();
      await c.closed;
    });

    it("refuses past the per-user cap across the user's sockets, and a closed socket frees its slots", async () => {
      const socks = [await connect(), await connect(), await connect(), await connect()];
      for (const [i, c] of socks.entries()) await open(c, `u${i}-`, 64);
      const fifth = await connect();
      fifth.ws.send(sub('over'));
      expect(await fifth.next((x) => x.t === 'end' && x.id === 'over')).toMatchObject({
        error: { code: 'TOO_MANY_SUBSCRIPTIONS', message: expect.stringMatching(/already have 256 live subscriptions.*\(256\)/) },
      });
      socks[0]?.ws.close();
      await socks[0]?.closed;
      fifth.ws.send(sub('after-close'));
      expect(await fifth.next((x) => (x.t === 'batch' || x.t === 'end') && x.id === 'after-close')).toMatchObject({ t: 'batch' });
      for (const c of [...socks.slice(1), fifth]) c.ws.close();
    });
  });

  it('refuses a WebSocket upgrade from another origin before upgrading', async () => {
    expect(await upgradeStatus(`ws://${base}/api/ws`, { origin: 'https://evil.example' })).toBe(403);
  });

  it('answers only to loopback Host names (DNS rebinding)', async () => {
    expect(await upgradeStatus(`ws://${base}/api/ws`, { host: 'evil.example' })).toBe(403);
    // fetch() will not send a forged Host; node:http will.
    const [hostname, port] = base.split(':');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ hostname, port: Number(port), path: '/api/session', headers: { host: 'rebind.evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('accepts a same-origin browser upgrade', async () => {
    const c = await connect({ origin: `http://${base}` });
    c.ws.send(JSON.stringify({ t: 'call', id: 'h', name: 'health', input: {} }));
    expect(await c.next((x) => x.t === 'result' && x.id === 'h')).toMatchObject({ ok: true });
    c.ws.close();
  });

  it('streams connection state, current state first', async () => {
    const c = await connect();
    c.ws.send(JSON.stringify({ t: 'sub', id: 's', name: 'connections.state', input: {} }));
    const m = await c.next((x) => x.t === 'batch' && x.id === 's');
    const events = (m as { events: { profileId: string }[] }).events;
    expect(events.map((e) => e.profileId)).toContain('env');
    c.ws.close();
  });

  describe('uploads', () => {
    const post = (body: string, headers: Record<string, string>, name = 'data.csv') =>
      fetch(`http://${base}/api/uploads?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', ...headers },
        body,
      });

    it('streams an upload to disk and offers it to bulk.files', async () => {
      const res = await post('id,v\n1,a\n', { 'x-cacheboard-upload': '1' }, '../../etc/evil.csv');
      expect(res.status).toBe(200);
      const { file } = (await res.json()) as { file: { fileId: string; name: string; size: number } };
      expect(file.name).not.toContain('/');
      expect(file.size).toBe(9);
      const c = await connect();
      c.ws.send(JSON.stringify({ t: 'call', id: 'f', name: 'bulk.files', input: {} }));
      const m = (await c.next((x) => x.t === 'result' && x.id === 'f')) as { output: { files: { fileId: string }[] } };
      expect(m.output.files.map((f) => f.fileId)).toContain(file.fileId);
      c.ws.close();
    });

    it('refuses an upload without the page header or from another origin', async () => {
      expect((await post('x', {})).status).toBe(403);
      expect((await post('x', { 'x-cacheboard-upload': '1', origin: 'https://evil.example' })).status).toBe(403);
    });

    it('refuses an upload over the limit with 413 and names the limit', async () => {
      const res = await post('x'.repeat(10_000), { 'x-cacheboard-upload': '1' });
      expect(res.status).toBe(413);
      expect(JSON.stringify(await res.json())).toContain('4096');
    });
  });
});
