import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { BulkPage } from '../pages/BulkPage';
import { ExportDialog } from '../pages/ExportDialog';
import { KeysPage } from '../pages/KeysPage';
import { expect, test, webOnly } from '../redisFixture';

/** Every key of the DB, read type by type (not DUMP), with whether it has a TTL. */
async function contents(admin: Redis): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of await admin.keysBuffer('*')) {
    const name = key.toString('base64');
    const type = await admin.type(key);
    const value =
      type === 'string'
        ? (await admin.getBuffer(key))?.toString('base64')
        : type === 'hash'
          ? await admin.hgetall(key)
          : type === 'list'
            ? await admin.lrange(key, 0, -1)
            : type === 'set'
              ? (await admin.smembers(key)).sort()
              : await admin.zrange(key, 0, -1, 'WITHSCORES');
    out[name] = { type, value, ttl: (await admin.pttl(key)) > 0 };
  }
  return out;
}

test.describe('Keys page: export', () => {
  webOnly('the download route is the web build’s; the desktop app exports with the CLI');

  test('a folder as ndjson: the download holds what was written, and loads back on the Bulk load page', async ({ page, redis, admin }) => {
    test.setTimeout(120_000);
    // Sizes follow the port, so no count is a constant the page could fake.
    const n = 5 + (redis.port % 7);
    const p = admin.pipeline();
    for (let i = 0; i < n; i++) p.set(`exp:s:${i}`, `value ${i}, "quoted"`);
    p.set('exp:ttl', 'soon', 'PX', 3_600_000);
    p.set(Buffer.from([0x65, 0x78, 0x70, 0x3a, 0xff]), Buffer.from([0x00, 0xfe, 0x80]));
    p.hset('exp:h', { a: '1', b: 'two' });
    p.rpush('exp:l', 'x', 'y', 'x');
    p.sadd('exp:set', 'm1', 'm2');
    p.zadd('exp:z', 1.5, 'a', 2, 'b');
    await p.exec();
    const written = await contents(admin);

    const keys = new KeysPage(page);
    await keys.openOn('export', redis);
    await keys.waitForCompleteTree();
    await keys.openFolder('exp:');
    const ex = new ExportDialog(page);
    await ex.open();
    await ex.choose('folder', 'ndjson');
    await page.setViewportSize({ width: 1280, height: 800 });
    await ex.screenshot('/tmp/exportpage/export-dialog-1280-light.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await ex.screenshot('/tmp/exportpage/export-dialog-1280-dark.png');
    await page.emulateMedia({ colorScheme: null });
    const download = await ex.start();
    expect(download.suggestedFilename()).toMatch(/\.keys\.ndjson$/);
    const path = await download.path();
    await ex.waitDone();
    const total = Object.keys(written).length;
    await expect(ex.counts()).toContainText(`${total} keys`);
    await expect(ex.skipped()).toHaveText('Skipped: 0 gone before they were read, 0 of a type the format cannot hold');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await ex.screenshot('/tmp/exportpage/export-dialog-1920-done-light.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await ex.screenshot('/tmp/exportpage/export-dialog-1920-done-dark.png');
    await page.emulateMedia({ colorScheme: null });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The file, parsed here: one object per key, binary as base64, equal to what the test wrote.
    const text = readFileSync(path, 'utf8');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(total);
    const byKey = new Map(lines.map((l) => [typeof l.key === 'string' ? Buffer.from(l.key).toString('base64') : String(l.key_b64), l]));
    expect(byKey.get(Buffer.from('exp:h').toString('base64'))).toMatchObject({ type: 'hash', ttl_ms: null, value: { a: '1', b: 'two' } });
    expect(byKey.get(Buffer.from('exp:z').toString('base64'))).toMatchObject({
      type: 'zset',
      value: [
        ['a', 1.5],
        ['b', 2],
      ],
    });
    expect(byKey.get(Buffer.from([0x65, 0x78, 0x70, 0x3a, 0xff]).toString('base64'))).toMatchObject({
      value_b64: Buffer.from([0x00, 0xfe, 0x80]).toString('base64'),
    });
    expect((byKey.get(Buffer.from('exp:ttl').toString('base64'))?.ttl_ms as number) > 3_000_000).toBe(true);
    await ex.close();

    // Load it back into an emptied DB with the Bulk load page: every key as it was.
    await admin.flushdb();
    const bulk = new BulkPage(page);
    await bulk.open();
    await bulk.upload(download.suggestedFilename(), text);
    await bulk.start(0);
    await expect(bulk.outcome()).toHaveText('ok', { timeout: 30_000 });
    expect(await contents(admin)).toEqual(written);
  });
});
