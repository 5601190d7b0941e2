import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../app/define';
import type { ServerMessage } from '../../../app/wire';
import { startRedis, type RedisProcess } from '../../../testing/redis';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { createRuntime, type Runtime } from '../../runtime';
import { createMemoryWirePair } from '../wireTestKit';

const SECRET = 'saved-Secret-93';
let saved: RedisProcess;
let lure: RedisProcess;
let runtime: Runtime;

beforeAll(async () => {
  // The lure accepts the saved profile's password: if the form ever sent it there, the test would say ok.
  [saved, lure] = await Promise.all([startRedis({ password: SECRET }), startRedis({ password: SECRET })]);
  runtime = await createRuntime({
    dataDir: mkdtempSync(join(tmpdir(), 'cb-conn-')),
    secretBox: noSecretBox('no stored passwords in this test'),
    redisUrl: `redis://:${SECRET}@127.0.0.1:${saved.port}/0`,
  });
});
afterAll(async () => {
  await runtime.close();
  await Promise.all([saved.stop(), lure.stop()]);
});

async function call(role: Role, name: string, input: unknown): Promise<Extract<ServerMessage, { t: 'result' }>> {
  const { server, client } = createMemoryWirePair();
  const detach = runtime.attach(server, { role });
  try {
    return await new Promise((resolve) => {
      client.onMessage((m) => {
        if (m.t === 'result' && m.id === 'c') resolve(m);
      });
      client.send({ t: 'call', id: 'c', name, input });
    });
  } finally {
    detach();
  }
}

const draftAt = (port: number) => ({ name: 'draft', host: '127.0.0.1', port, db: 0 });

describe('connections.test', () => {
  it('lets an analyst test a saved profile, but not a draft (no probing hosts through the server)', async () => {
    const ok = await call('analyst', 'connections.test', { id: 'env' });
    expect(ok).toMatchObject({ ok: true, output: { ok: true } });
    const refused = await call('analyst', 'connections.test', { draft: draftAt(lure.port) });
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', field: 'draft' } });
  });

  it('lends the saved password to a draft of the same host:port only, never to another host', async () => {
    const same = await call('ops', 'connections.test', { id: 'env', draft: draftAt(saved.port) });
    expect(same).toMatchObject({ ok: true, output: { ok: true } });
    const elsewhere = await call('ops', 'connections.test', { id: 'env', draft: draftAt(lure.port) });
    expect(elsewhere).toMatchObject({ ok: true, output: { ok: false } });
  });
});

describe('an unknown profile id', () => {
  it('is NOT_FOUND on the input field that named it, in every domain that takes one', async () => {
    const notFound = (field: string) => ({ ok: false, error: { code: 'NOT_FOUND', field, message: 'No connection profile with id "ghost"' } });
    expect(await call('ops', 'connections.remove', { id: 'ghost' })).toMatchObject(notFound('id'));
    expect(await call('analyst', 'connections.test', { id: 'ghost' })).toMatchObject(notFound('id'));
    expect(await call('analyst', 'server.info', { profileId: 'ghost' })).toMatchObject(notFound('profileId'));
    expect(await call('analyst', 'sampling.start', { profileId: 'ghost' })).toMatchObject(notFound('profileId'));
    expect(await call('ops', 'trials.start', { profileId: 'ghost', trial: 'pipeline' })).toMatchObject(notFound('profileId'));
    expect(await call('ops', 'audience.demoData', { profileId: 'ghost' })).toMatchObject(notFound('profileId'));
    expect(await call('analyst', 'audience.attributes', { profileId: 'ghost' })).toMatchObject(notFound('profileId'));
  });
});
