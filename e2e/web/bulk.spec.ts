import { BulkPage } from '../pages/BulkPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { MetricsPage } from '../pages/MetricsPage';
import { setKeys } from '../../main/core/bulk/job/appWritesTestKit';
import { CLAIMING, holdWrites, LOADING, writeDuringPause } from '../heldWrites';
import { expect, test } from '../redisFixture';

test.describe('Bulk load page', () => {
  test('uploads a CSV, previews the mapping, swaps it in and reports', async ({ page, redis, admin }) => {
    await admin.set('live:old', 'before the load');
    await admin.config('SET', 'save', '3600 1'); // switched off during the load, restored after
    const name = await new ConnectionsPage(page).addServer('bulk', redis);
    await new MetricsPage(page).open(name); // selects the profile in the header

    const n = 500 + (redis.port % 200);
    const rows = Array.from({ length: n }, (_, i) => `${i},name-${i}-${(i * 7919) % 1000}`);
    const file = `users-${redis.port}.csv`;
    const bulk = new BulkPage(page);
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
    await new MetricsPage(page).open(name);

    const k = 40 + (redis.port % 30);
    const lines = Array.from({ length: 100 }, (_, i) => (i + 1 === k ? 'INCR not:a:number:0' : `SET not:a:number:${i} "v ${i}"`));
    const file = `updates-${redis.port}.txt`;
    const bulk = new BulkPage(page);
    await bulk.open();
    await bulk.upload(file, `${lines.join('\n')}\n`);
    await expect(bulk.preview()).toContainText('not:a:number:0');
    await bulk.setMaxErrors(0);
    await bulk.start(0);

    await expect(bulk.outcome()).toHaveText('failed', { timeout: 30_000 });
    await expect(bulk.firstErrors()).toContainText(`${file}:${k}`);
    await expect(bulk.report('swapped')).toHaveText('no');
    // The load is over: its rate chart no longer waits for it to start writing.
    await expect(page.getByText('Waiting for the load to start writing')).toHaveCount(0);
    expect(await admin.dbsize()).toBe(2);
    expect(await admin.mget('live:a', 'live:b')).toEqual(['1', '2']);
  });

  test('a header-only CSV over a live DB is refused with both counts; ticking the opt-in swaps it in', async ({ page, redis, admin }) => {
    const live = 20 + (redis.port % 30);
    await admin.mset(Object.fromEntries(Array.from({ length: live }, (_, i) => [`live:${i}`, `v${i}`])));
    const name = await new ConnectionsPage(page).addServer('bulkempty', redis);
    await new MetricsPage(page).open(name);

    const file = `header-only-${redis.port}.csv`;
    const bulk = new BulkPage(page);
    await bulk.open();
    await bulk.upload(file, 'id,name\n');
    await bulk.mapString('user:{id}', 'name');
    await bulk.start(0);

    await expect(bulk.outcome()).toHaveText('failed', { timeout: 30_000 });
    await expect(bulk.error()).toContainText(`Staging DB 15 holds 0 keys and the live DB 0 holds ${live} keys: the swap would empty DB 0`);
    // In the page's words: the checkbox to tick, not the CLI's flag.
    await expect(bulk.error()).toContainText('tick “Allow an empty or much smaller DB” to replace it anyway');
    await expect(bulk.error()).not.toContainText('--allow-empty');
    await expect(bulk.keyCounts()).toHaveText(`new 0 keys · live ${live} keys`);
    await expect(bulk.live()).toContainText(`untouched db0: ${live} keys before, ${live} after`);
    await expect(bulk.report('swapped')).toHaveText('no');
    expect(await admin.dbsize()).toBe(live);

    // Back to the form: the refusal sits under the checkbox it names; ticking it lets the swap through.
    await bulk.adjust();
    await expect(bulk.fieldError('allowEmpty')).toContainText(`holds ${live} keys`);
    await expect(bulk.fieldError('allowEmpty')).not.toContainText('--allow-empty');
    await bulk.optIn('allowEmpty').check();
    await expect(bulk.fieldError('allowEmpty')).toHaveCount(0);
    await bulk.start(0);
    await expect(bulk.outcome()).toHaveText('ok', { timeout: 30_000 });
    await expect(bulk.keyCounts()).toHaveText(`new 0 keys · live ${live} keys`);
    expect(await admin.dbsize()).toBe(0);
  });

  test('a staging DB left by a crashed load is flushed first, reused, and the report says so', async ({ page, redis, admin }) => {
    // What a load killed mid-way leaves: DB 3 stamped with its marker (main/core/bulk/job/stagingMarker.ts) and partial data.
    const marker = JSON.stringify({
      app: 'cacheboard',
      jobId: 'load_crashed9',
      host: 'elsewhere',
      pid: 1,
      startedAt: Date.now() - 60_000,
      targetDb: 0,
      phase: 'loading',
    });
    const partial = 30 + (redis.port % 20);
    const stale = admin.duplicate();
    await stale.select(3);
    await stale.mset(Object.fromEntries([['__cacheboard:staging-marker__', marker], ...Array.from({ length: partial }, (_, i) => [`user:${i}`, 'half'])]));
    const name = await new ConnectionsPage(page).addServer('bulkstale', redis);
    await new MetricsPage(page).open(name);

    const file = `rerun-${redis.port}.csv`;
    const bulk = new BulkPage(page);
    await bulk.open();
    await bulk.upload(file, 'id,name\n1,a\n2,b\n');
    await bulk.mapString('user:{id}', 'name');
    await bulk.start(0);

    await expect(bulk.outcome()).toHaveText('ok', { timeout: 30_000 });
    await expect(bulk.report('stale')).toContainText(`Flushed stale staging DB 3 ${partial + 1} keys of load load_crashed9 from elsewhere`);
    expect(await stale.dbsize()).toBe(0);
    expect(await admin.dbsize()).toBe(2);
    stale.disconnect();
  });

  test('writes to the live DB during a swap refuse the switch, counted; ticking the opt-in switches and says how many it discarded', async ({
    page,
    redis,
    admin,
  }) => {
    const live = 20 + (redis.port % 30);
    await admin.mset(Object.fromEntries(Array.from({ length: live }, (_, i) => [`live:${i}`, `v${i}`])));
    const name = await new ConnectionsPage(page).addServer('bulklivewrites', redis);
    await new MetricsPage(page).open(name);

    const rows = 200 + (redis.port % 100);
    const file = `users-lw-${redis.port}.csv`;
    const bulk = new BulkPage(page);
    await bulk.open();
    await bulk.upload(file, `id,name\n${Array.from({ length: rows }, (_, i) => `${i},n${i}`).join('\n')}\n`);
    await bulk.mapString('user:{id}', 'name');
    await expect(bulk.optIn('allowLiveWrites')).not.toBeChecked();

    // An application writes 30 keys into the live DB while the load stages.
    await holdWrites(admin);
    await bulk.start(0);
    await writeDuringPause(admin, CLAIMING, 0, setKeys('order:', 30));
    await expect(bulk.outcome()).toHaveText('failed', { timeout: 30_000 });
    await expect(bulk.error()).toContainText('Other clients wrote to the live DB 0 30 times during the load');
    await expect(bulk.error()).toContainText('tick “Switch even if the live DB was written to” to switch anyway');
    await expect(bulk.report('live-writes')).toHaveAttribute('data-writes', '30');
    await expect(bulk.report('live-writes')).toHaveAttribute('data-discarded', '0');
    await expect(bulk.report('live-writes')).toContainText('30 by other clients to db0');
    await expect(bulk.report('swapped')).toHaveText('no');
    expect(await admin.dbsize()).toBe(live + 30);

    await bulk.adjust();
    await expect(bulk.fieldError('allowLiveWrites')).toContainText('30 times');
    await bulk.optIn('allowLiveWrites').check();
    await holdWrites(admin);
    await bulk.start(0);
    await writeDuringPause(admin, CLAIMING, 0, setKeys('order:', 30));
    await expect(bulk.outcome()).toHaveText('ok', { timeout: 30_000 });
    await expect(bulk.report('live-writes')).toHaveAttribute('data-discarded', '30');
    await expect(bulk.report('live-writes')).toContainText('30 discarded by the switch');
    expect(await admin.dbsize()).toBe(rows);
    expect(await admin.config('GET', 'notify-keyspace-events')).toEqual(['notify-keyspace-events', '']);
  });

  test('a staging DB another client wrote into is left as it is, with the command to empty it', async ({ page, redis, admin }) => {
    await admin.set('live:old', 'before the load');
    const name = await new ConnectionsPage(page).addServer('bulkforeign', redis);
    await new MetricsPage(page).open(name);

    const rows = 200_000;
    const file = `big-${redis.port}.csv`;
    const bulk = new BulkPage(page);
    await bulk.open();
    await bulk.upload(file, `id,name\n${Array.from({ length: rows }, (_, i) => `${i},n${i}`).join('\n')}\n`);
    await bulk.mapString('user:{id}', 'name');
    await bulk.start(0);

    // Mid-load (more than the staging marker in DB 15), an application writes 50 keys into DB 15.
    const staging = admin.duplicate({ db: 15 });
    await expect.poll(() => staging.dbsize(), { timeout: 30_000, intervals: [5] }).toBeGreaterThan(1);
    await holdWrites(admin);
    await writeDuringPause(admin, LOADING, 15, setKeys('app:order:', 50));
    await expect(bulk.outcome()).toHaveText('failed', { timeout: 30_000 });
    await expect(bulk.report('staging-left')).toHaveAttribute('data-db', '15');
    await expect(bulk.report('staging-left')).toContainText('NOT flushed');
    await expect(bulk.cleanCommand()).toHaveText(`redis-cli -h 127.0.0.1 -p ${redis.port} -n 15 FLUSHDB ASYNC`);
    expect(await staging.keys('app:order:*')).toHaveLength(50);
    expect(await admin.get('live:old')).toBe('before the load');
    staging.disconnect();
  });
});
