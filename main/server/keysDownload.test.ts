import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RpcClient } from '../../app/rpcClient';
import type { DownloadEvent } from '../../app/schemas/keys';
import { MAX_MESSAGE_BYTES, type ServerMessage } from '../../app/wire';
import { adminClient, closeAdmins, useRedis } from '../../testing/redis';
import { noSecretBox } from '../core/pool/noSecretBox';
import { createRuntime, type Runtime } from '../runtime';
import { listenWebServer } from './webServerTestKit';

const redis = useRedis();
let runtime: Runtime;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  runtime = await createRuntime({ dataDir: mkdtempSync(join(tmpdir(), 'cb-web-dl-')), secretBox: noSecretBox('tests'), redisUrl: redis().url });
  ({ app, base } = await listenWebServer(runtime));
});
afterAll(async () => {
  await app.close();
  await runtime.close();
  await closeAdmins();
});

describe('keys.download over the WebSocket', () => {
  it('a client that stops reading for a while still gets every byte: the server waits, drops nothing, and no message passes 1 MiB', async () => {
    const value = Buffer.from(Array.from({ length: 6 * 1024 * 1024 + 5 }, (_, i) => (i * 37 + (i >> 9)) % 256));
    await (await adminClient(redis())).set(Buffer.from([0xff, 0x0a]), value);
    const ws = new WebSocket(`ws://${base}/api/ws`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const rpc = new RpcClient((m) => ws.send(JSON.stringify(m)));
    let largest = 0;
    ws.on('message', (d) => {
      const text = String(d);
      largest = Math.max(largest, Buffer.byteLength(text));
      rpc.receive(JSON.parse(text) as ServerMessage);
    });
    const events: DownloadEvent[] = [];
    let dropped = 0;
    let paused = false;
    const ended = new Promise<Error | undefined>((resolve) => {
      rpc.subscribe(
        'keys.download',
        { profileId: 'env', key: Buffer.from([0xff, 0x0a]).toString('base64') },
        {
          onEvents: (batch, d) => {
            events.push(...batch);
            dropped = d;
            if (!paused) {
              // Stop reading the socket: the server's send buffer fills past its congestion mark.
              paused = true;
              const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
              socket.pause();
              setTimeout(() => socket.resume(), 500);
            }
          },
          onEnd: resolve,
        },
      );
    });
    expect(await ended).toBeUndefined();
    ws.close();
    expect(dropped).toBe(0);
    expect(Buffer.concat(events.map((e) => Buffer.from(e.chunk, 'base64'))).equals(value)).toBe(true);
    expect(largest).toBeLessThan(MAX_MESSAGE_BYTES);
  });
});
