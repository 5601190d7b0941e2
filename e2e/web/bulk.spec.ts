import { BulkLoadPage } from '../pages/BulkLoadPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { OverviewPage } from '../pages/OverviewPage';
import { expect, test } from '../redisFixture';

test.describe('Bulk load page', () => {
  test('uploads a CSV, previews the mapping, swaps it in and reports', async ({ page, redis, admin }) => {
    await admin.set('live:old', 'before the load');
    await admin.config('SET', 'save', '3600 1'); // switched off during the load, restored after
    const name = await new ConnectionsPage(page).addServer('bulk', redis);
    await new OverviewPage(page).open(name); // selects the profile in the header

    const n = 500 + (redis.port % 200);
    const rows = Array.from({ length: n }, (_, i) => `${i},name-${i}-${(i * 7919) % 1000}`);
    const file = `users-${redis.port}.csv`;
    const bulk = new BulkLoadPage(page);
    await bulk.open();
    await bulk.upload(file, `id,name\n${rows.join('\n')}\n`);
    await bulk.mapString('user:{id}', 'name');
    await expect(bulk.preview()).toContainText('user:0');
    await expect(bulk.preview()).toContainText('name-0-0');

    await bulk.start(0);
    await expect(bulk.outcome()).toHaveText('ok', { timeout: 30_000 });
    await expect(bulk.report('records')).toHaveAttribute('data-value', String(n));
    await expect(bulk.report('swapped')).toHaveText('yes');

    // The live DB now holds exactly the file: checked from the side, key by key on a sample.
    expect(await admin.dbsize()).toBe(n);
    expect(await admin.exists('live:old')).toBe(0);
    for (const i of [0, 1, n >> 1, n - 1]) {
      expect(await admin.get(`user:${i}`)).toBe(`name-${i}-${(i * 7919) % 1000}`);
    }
    expect(await admin.config('GET', 'save')).toEqual(['save', '3600 1']);
  });

  test('an error reply at line k fails the load at line k and leaves the live DB untouched', async ({ page, redis, admin }) => {
    await admin.mset('live:a', '1', 'live:b', '2');
    const name = await new ConnectionsPage(page).addServer('bulkerr', redis);
    await new OverviewPage(page).open(name);

    const k = 40 + (redis.port % 30);
    const lines = Array.from({ length: 100 }, (_, i) => (i + 1 === k ? 'INCR not:a:number:0' : `SET not:a:number:${i} "v ${i}"`));
    const file = `updates-${redis.port}.txt`;
    const bulk = new BulkLoadPage(page);
    await bulk.open();
    await bulk.upload(file, `${lines.join('\n')}\n`);
    await expect(bulk.preview()).toContainText('not:a:number:0');
    await bulk.setMaxErrors(0);
    await bulk.start(0);

    await expect(bulk.outcome()).toHaveText('failed', { timeout: 30_000 });
    await expect(bulk.firstErrors()).toContainText(`${file}:${k}`);
    await expect(bulk.report('swapped')).toHaveText('no');
    expect(await admin.dbsize()).toBe(2);
    expect(await admin.mget('live:a', 'live:b')).toEqual(['1', '2']);
  });
});
