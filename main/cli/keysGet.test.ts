import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../testing/redis';
import { runKeysGet as run } from './keysGetTestKit';

const redis = useRedis();
let admin: Redis;
const url = () => `redis://127.0.0.1:${redis().port}`;

beforeAll(async () => {
  admin = await adminClient(redis());
});
afterAll(closeAdmins);

describe('cacheboard keys get', () => {
  it('a binary key typed escaped: --json gives the metadata and first page with exact bytes', async () => {
    const key = Buffer.from([0x75, 0xff, 0x0d, 0x0a, 0xe2, 0x80, 0xae]);
    await admin.hset(key, Buffer.from([0x00, 0xfe]), Buffer.from('v\n'), 'b', '2');
    const { code, out } = await run('\\x75\\xff\\r\\n\\u202e', '--url', url(), '--json');
    expect(code).toBe(0);
    const view = JSON.parse(out) as {
      meta: { type: string; length: number; key: { b64: string } };
      page: { type: string; total: number; entries: Array<{ field: { b64: string } }> };
    };
    expect(view.meta).toMatchObject({ type: 'hash', length: 2, key: { b64: key.toString('base64') } });
    expect(view.page).toMatchObject({ type: 'hash', total: 2 });
    expect(view.page.entries.map((e) => Buffer.from(e.field.b64, 'base64').toString('hex')).sort()).toEqual(['00fe', '62']);
  });

  it('human output: metadata lines and the page', async () => {
    await admin.rpush('q:jobs', 'first', 'second');
    const { code, out } = await run('q:jobs', '--url', url());
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^type\\s+list \\(${String(await admin.object('ENCODING', 'q:jobs'))}\\)$`, 'm'));
    expect(out).toMatch(/^length\s+2$/m);
    expect(out).toMatch(/^1\) second$/m);
  });

  it('a key that does not exist: exit 1', async () => {
    const { code, out } = await run('missing:key', '--url', url(), '--json');
    expect(code).toBe(1);
    expect(JSON.parse(out)).toMatchObject({ meta: { exists: false, type: null }, page: null });
  });

  it('a bad escape names its position; no KEY or two KEYs are refused', async () => {
    await expect(run('ab\\q', '--url', url())).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/position 3/) });
    await expect(run('--url', url())).rejects.toMatchObject({ code: 'VALIDATION', field: 'key' });
    await expect(run('a', 'b', '--url', url())).rejects.toMatchObject({ code: 'VALIDATION', field: 'key' });
  });
});
