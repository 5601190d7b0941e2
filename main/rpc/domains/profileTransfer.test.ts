import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../../../e2e/serveProcess';
import { startRedis, type RedisProcess } from '../../../testing/redis';
import { apiClient } from '../../cli/serveApiTestKit';
import { redisInsightExport } from '../../core/profiles/importTestKit';

const SECRET = 'imported-Secret-4417';
let real: RedisProcess;
let serve: ServeProcess;
let api: Awaited<ReturnType<typeof apiClient>>;

beforeAll(async () => {
  real = await startRedis({ password: SECRET });
  serve = await startServe({ CACHEBOARD_SECRET_KEY: 'profile-transfer-test-key-0001' });
  api = await apiClient(Number(new URL(serve.url).port));
}, 60_000);
afterAll(async () => {
  api.close();
  await serve.stop();
  await real.stop();
});

type View = { id: string; name: string; hasPassword: boolean };

/** RedisInsight's export with its first database on the test server as the default user (RedisInsight writes "" for none). */
const riFile = () => JSON.stringify([{ ...(redisInsightExport({ host: '127.0.0.1', port: real.port, password: SECRET })[0] as object), username: '' }]);

describe('connections import and export through the server', () => {
  it('imports a RedisInsight database whose password then opens the real server', async () => {
    const preview = (await api.call('connections.import.preview', { content: riFile() })) as { entries: Array<{ name: string; secrets: string[] }> };
    expect(preview.entries.map((e) => [e.name, e.secrets])).toEqual([['orders-cache', ['password']]]);
    expect(JSON.stringify(preview)).not.toContain(SECRET);
    // The fixture's database 2 exists on any redis-server; the test reaches the imported profile with its stored password.
    const { imported } = (await api.call('connections.import.commit', { content: riFile() })) as { imported: View[] };
    expect(imported).toMatchObject([{ name: 'orders-cache', hasPassword: true }]);
    const result = (await api.call('connections.test', { id: imported[0]?.id })) as { ok: boolean };
    expect(result.ok).toBe(true);
  });

  it('exports without the password unless asked, and with it only sealed', async () => {
    const plain = (await api.call('connections.export', {})) as { content: string };
    expect(plain.content).not.toContain(SECRET);
    expect(JSON.parse(plain.content)).not.toHaveProperty('secrets');
    const sealed = (await api.call('connections.export', { includeSecrets: true, passphrase: 'team passphrase' })) as { content: string; withSecrets: number };
    expect(sealed.content).not.toContain(SECRET);
    expect(sealed.withSecrets).toBeGreaterThan(0);
    const back = (await api.call('connections.import.preview', { content: sealed.content, passphrase: 'team passphrase' })) as {
      entries: Array<{ secrets: string[] }>;
    };
    expect(back.entries.some((e) => e.secrets.includes('password'))).toBe(true);
  });

  it('refuses to include secrets without a passphrase', async () => {
    expect(await api.result('connections.export', { includeSecrets: true })).toMatchObject({ ok: false, error: { code: 'VALIDATION', field: 'passphrase' } });
  });

  it('never sent the password to the client in any frame', () => {
    expect(api.frames()).not.toContain(SECRET);
  });
});
