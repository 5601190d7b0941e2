import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerMessage } from '../../../app/wire';
import { startServe, type ServeProcess } from '../../../e2e/serveProcess';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';

/**
 * The compiled build (dist/main/, rebuilt by vitest's global setup when stale): the decode
 * worker is its own entry point, found beside the chunk that starts it. `cacheboard serve`
 * answers keys.decode over its WebSocket, so the worker started and ran from dist/main/.
 */
const redis = useRedis();
let serve: ServeProcess;

beforeAll(async () => {
  serve = await startServe({ REDIS_URL: redis().url });
}, 60_000);
afterAll(async () => {
  await serve?.stop();
  await closeAdmins();
});

async function call(name: string, input: unknown): Promise<ServerMessage> {
  const ws = new WebSocket(`${serve.url.replace('http', 'ws')}/api/ws`, { headers: { origin: serve.url } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const answer = new Promise<ServerMessage>((resolve) => {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as ServerMessage;
      if (m.t === 'result' && m.id === 'x') resolve(m);
    });
  });
  ws.send(JSON.stringify({ t: 'call', id: 'x', name, input }));
  const m = await answer;
  ws.close();
  return m;
}

describe('keys.decode in the built server', () => {
  it('decompresses and decodes in the worker compiled into dist/main/', async () => {
    const admin = await adminClient(redis());
    await admin.set('built:v', zlib.gzipSync(JSON.stringify({ built: true })));
    const m = await call('keys.decode', { profileId: 'env', key: Buffer.from('built:v').toString('base64') });
    expect(m).toMatchObject({ t: 'result', ok: true, output: { compression: 'gzip', format: 'json', text: '{\n  "built": true\n}', error: null } });
  });
});
