import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../../../e2e/serveProcess';
import { recordingServer, type RecordingServer } from '../../../testing/recordingServer';
import { startRedis, type RedisProcess } from '../../../testing/redis';
import { apiClient } from '../../cli/serveApiTestKit';

const SECRET = 'stored-Secret-5521';
const SENTINEL_SECRET = 'sentinel-Secret-7730';
let real: RedisProcess;
let serve: ServeProcess;
let api: Awaited<ReturnType<typeof apiClient>>;

beforeAll(async () => {
  real = await startRedis({ password: SECRET });
  // Local mode (loopback, no users): any ops user of a signed-in server has the same calls.
  serve = await startServe({ CACHEBOARD_SECRET_KEY: 'connections-secrets-test-key-0001', REDIS_URL: `redis://127.0.0.1:${real.port}/0` });
  api = await apiClient(Number(new URL(serve.url).port));
}, 60_000);
afterAll(async () => {
  api.close();
  await serve.stop();
  await real.stop();
});

type View = { id: string; hasPassword: boolean; topology?: { hasSentinelPassword?: boolean } };
// Every draft names host and port itself: a cluster or sentinel draft without them would take the
// default port (6379, 26379) as its first node, and this test must never reach a server it did not start.
const base = { name: 'moved', host: '127.0.0.1', db: 0 };

/** A profile saved with the password, on `first`; then edited by `edit` with no password typed; then tested. */
async function moveAndTest(first: Record<string, unknown>, edit: Record<string, unknown>, attacker: RecordingServer) {
  const saved = (await api.call('connections.add', { ...base, ...first })) as View;
  const updated = (await api.call('connections.update', { id: saved.id, profile: { ...base, ...edit } })) as View;
  await api.call('connections.test', { id: saved.id });
  return { updated, received: attacker.received() };
}

describe('a stored password stays with the place it was typed for', () => {
  let attacker: RecordingServer;
  beforeAll(async () => {
    attacker = await recordingServer();
  });
  afterAll(() => attacker.close());

  it('is dropped when the port changes: the new server never sees AUTH with it', async () => {
    const { updated, received } = await moveAndTest({ port: real.port, password: SECRET }, { port: attacker.port }, attacker);
    expect(updated.hasPassword).toBe(false);
    expect(received).not.toContain(SECRET);
  });

  it('is dropped when the host changes', async () => {
    // 127.0.0.2 is loopback too on Linux: the same listener, under another host name.
    const other = await recordingServer();
    try {
      const saved = (await api.call('connections.add', { ...base, host: 'localhost', port: other.port, password: SECRET })) as View;
      const updated = (await api.call('connections.update', { id: saved.id, profile: { ...base, host: '127.0.0.1', port: other.port } })) as View;
      expect(updated.hasPassword).toBe(false);
      const before = other.received().length;
      await api.call('connections.test', { id: saved.id });
      expect(other.received().slice(before)).not.toContain(SECRET);
    } finally {
      await other.close();
    }
  });

  it('is dropped when TLS is turned off (the password would cross the wire in clear text)', async () => {
    const { updated, received } = await moveAndTest(
      { port: attacker.port, password: SECRET, tls: { enabled: true, rejectUnauthorized: false } },
      { port: attacker.port, tls: { enabled: false } },
      attacker,
    );
    expect(updated.hasPassword).toBe(false);
    expect(received).not.toContain(SECRET);
  });

  it('is dropped when a standalone profile becomes a cluster seeded elsewhere', async () => {
    const { updated, received } = await moveAndTest({ port: real.port, password: SECRET }, { port: attacker.port, topology: { kind: 'cluster' } }, attacker);
    expect(updated.hasPassword).toBe(false);
    expect(received).not.toContain(SECRET);
  });

  it("is dropped when a cluster profile's seeds change", async () => {
    const { updated, received } = await moveAndTest(
      { port: real.port, topology: { kind: 'cluster' }, password: SECRET },
      { port: attacker.port, topology: { kind: 'cluster' } },
      attacker,
    );
    expect(updated.hasPassword).toBe(false);
    expect(received).not.toContain(SECRET);
  });

  it('drops the sentinel password too when the sentinels change', async () => {
    const decoy = await recordingServer();
    try {
      const sentinel = (at: number) => ({ port: at, topology: { kind: 'sentinel', masterName: 'mymaster' } });
      const saved = (await api.call('connections.add', {
        ...base,
        password: SECRET,
        port: decoy.port,
        topology: { ...sentinel(decoy.port).topology, sentinelPassword: SENTINEL_SECRET },
      })) as View;
      expect(saved.topology?.hasSentinelPassword).toBe(true);
      const updated = (await api.call('connections.update', { id: saved.id, profile: { ...base, ...sentinel(attacker.port) } })) as View;
      expect({ data: updated.hasPassword, sentinel: updated.topology?.hasSentinelPassword }).toEqual({ data: false, sentinel: false });
      await api.call('connections.test', { id: saved.id });
      expect(attacker.received()).not.toContain(SENTINEL_SECRET);
      expect(attacker.received()).not.toContain(SECRET);
    } finally {
      await decoy.close();
    }
  });

  it('keeps working when the password is typed again with the move, and is kept by an edit that moves nothing', async () => {
    const saved = (await api.call('connections.add', { ...base, port: attacker.port, password: SECRET })) as View;
    const moved = (await api.call('connections.update', { id: saved.id, profile: { ...base, port: real.port, password: SECRET } })) as View;
    expect(moved.hasPassword).toBe(true);
    expect(await api.call('connections.test', { id: saved.id })).toMatchObject({ ok: true });
    const renamed = (await api.call('connections.update', { id: saved.id, profile: { ...base, name: 'renamed', port: real.port } })) as View;
    expect(renamed.hasPassword).toBe(true);
    expect(await api.call('connections.test', { id: saved.id })).toMatchObject({ ok: true });
  });
});
