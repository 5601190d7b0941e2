import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { encode } from '@msgpack/msgpack';
import type { Redis } from 'ioredis';
import { addUser } from '../../main/server/auth/users';
import { AppShell } from '../pages/AppShell';
import { KeyValuePanel } from '../pages/KeyValuePanel';
import { longestTask, resetLongestTask, watchLongTasks } from '../pages/longTasks';
import { expect, test, webOnly } from '../redisFixture';
import { startServe, type ServeProcess } from '../serveProcess';

const IMG = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '<script>window.__pwned=1</script>';
/** `bin:` 0xff CR LF: not UTF-8, and a line break inside a key name. */
const BINARY_KEY = Buffer.from([0x62, 0x69, 0x6e, 0x3a, 0xff, 0x0d, 0x0a]);
const BINARY_TEXT = 'bin:\\xff\\r\\n';

/** A value of each type, with an element long enough to be cut and hostile text in places. */
async function seed(admin: Redis, seedNo: number): Promise<void> {
  const p = admin.pipeline();
  p.set('str:json', JSON.stringify({ user: { id: seedNo, tags: ['a', 'b'], html: SCRIPT }, n: null }));
  p.hset('h:user', { name: `ann-${seedNo}`, city: 'Oslo', bio: IMG, long: 'x'.repeat(20_000) });
  for (let i = 0; i < 250; i++) p.hset('h:big', `f:${String(i).padStart(3, '0')}`, `v${i}`);
  p.rpush('l:jobs', ...Array.from({ length: 230 }, (_, i) => `job-${i}`));
  p.sadd('s:tags', 'red', 'green', SCRIPT);
  p.zadd('z:scores', 10, 'alice', 20, 'bob', 5.5, 'carol', 30, IMG);
  p.xadd('x:events', '1-1', 'type', 'login', 'user', 'ann');
  p.xadd('x:events', '2-1', 'type', 'logout', 'user', 'bob', 'why', IMG);
  p.set(BINARY_KEY, 'bytes');
  p.set(IMG, SCRIPT);
  await p.exec();
  await admin.xgroup('CREATE', 'x:events', 'workers', '0');
  await admin.xreadgroup('GROUP', 'workers', 'w1', 'COUNT', '1', 'STREAMS', 'x:events', '>');
}

test.describe('Keys value panel', () => {
  test('every type opens with its metadata and paged views; hostile values show as text', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(90_000);
    await seed(admin, redis.port);
    const panel = new KeyValuePanel(page);
    await panel.useServer('kv', redis);

    await panel.open('str:json');
    await expect(panel.meta('type')).toHaveText('string');
    await expect(panel.meta('length')).toHaveText(String(await admin.strlen('str:json')));
    await expect(panel.text()).toContainText(SCRIPT);
    await panel.view('JSON');
    await expect(panel.json()).toContainText('{2 keys}');
    await panel.json().getByRole('button', { name: '▸' }).first().click();
    await expect(panel.json()).toContainText('"tags": ');
    await page.screenshot({ path: testInfo.outputPath('json.png'), fullPage: true });
    await panel.view('Hex');
    await expect(panel.hex()).toContainText('00000000');

    await panel.open('h:user');
    await expect(panel.meta('type')).toHaveText('hash');
    await expect(panel.meta('length')).toHaveText('4');
    await expect(panel.row('bio')).toContainText(IMG);
    // A 20,000-byte value is cut, with its full length beside it.
    await expect(panel.row('long')).toContainText('19.5 KiB');
    await page.screenshot({ path: testInfo.outputPath('hash.png'), fullPage: true });

    await panel.open('h:big');
    await expect(panel.shown()).toContainText('of 250');
    await panel.root().getByTestId('kv-match').fill('f:24*');
    await panel.root().getByTestId('kv-match').press('Enter');
    await expect(panel.row('f:249')).toContainText('v249');

    await panel.open('l:jobs');
    await expect(panel.shown()).toHaveText(/^200 items shown of 230/);
    await panel.loadMore();
    await expect(panel.shown()).toContainText('230 items shown of 230');
    await panel.testId('kv-list-end').getByRole('button', { name: 'From the tail' }).click();
    await expect(panel.rows().first()).toContainText('job-229');

    await panel.open('s:tags');
    await expect(panel.meta('length')).toHaveText('3');
    await expect(panel.row(SCRIPT)).toHaveCount(1);

    await panel.open('z:scores');
    await expect(panel.rows().first()).toContainText('carol');
    await expect(panel.rows().first()).toContainText('5.5');
    await panel.testId('kv-zset-rev').check();
    await expect(panel.rows().first()).toContainText(IMG);
    await panel.testId('kv-zset-by').getByRole('button', { name: 'By score' }).click();
    await panel.fill('kv-zset-min', '10');
    await panel.fill('kv-zset-max', '(30');
    await panel.click('kv-zset-range');
    await expect(panel.rows()).toHaveCount(2);
    await page.screenshot({ path: testInfo.outputPath('zset.png'), fullPage: true });

    await panel.open('x:events');
    await expect(panel.meta('type')).toHaveText('stream');
    await expect(panel.rows().first()).toContainText('2-1');
    await expect(panel.row('2-1')).toContainText(IMG);
    await expect(panel.testId('kv-stream-group')).toContainText('workers');
    await expect(panel.testId('kv-stream-pending')).toContainText('1-1');
    await page.screenshot({ path: testInfo.outputPath('stream.png'), fullPage: true });

    await panel.open(BINARY_KEY);
    await expect(panel.root().locator('.kv-key')).toHaveText(BINARY_TEXT);
    await panel.open(IMG);
    await expect(panel.root().locator('.kv-key')).toHaveText(IMG);
    await expect(panel.text()).toContainText(SCRIPT);

    await panel.open('no:such:key');
    await expect(panel.missing()).toContainText('No such key');

    await expect(page.locator('img, script:not([src])')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  });

  test('ops edit every type; a stale view is refused; a binary key is renamed and deleted', async ({ page, redis, admin }) => {
    test.setTimeout(120_000);
    await seed(admin, redis.port);
    const panel = new KeyValuePanel(page);
    await panel.useServer('kved', redis);

    // string: set (the whole value was loaded), append, TTL.
    await panel.open('str:json');
    await panel.click('kv-string-edit');
    await panel.fill('kv-string-value', 'v1\\x00end');
    await panel.click('kv-string-save');
    await expect.poll(() => admin.getBuffer('str:json')).toEqual(Buffer.from('v1\x00end', 'latin1'));
    await expect(panel.meta('length')).toHaveText('6');
    await panel.fill('kv-string-append-value', '+more');
    await panel.click('kv-string-append');
    await expect.poll(() => admin.get('str:json')).toBe('v1\x00end+more');
    await panel.click('kv-ttl-open');
    await panel.fill('kv-ttl-input', '3600');
    await panel.click('kv-ttl-save');
    await expect.poll(() => admin.ttl('str:json')).toBeGreaterThan(3500);
    await expect(panel.meta('ttl')).toHaveText(/^(59m|1h)/);
    await panel.click('kv-ttl-remove');
    await expect.poll(() => admin.ttl('str:json')).toBe(-1);
    await expect(panel.meta('ttl')).toHaveText('none');

    // A second client writes between open and save: the save is refused, nothing is overwritten.
    await panel.click('kv-string-edit');
    await panel.fill('kv-string-value', 'from the stale view');
    await admin.set('str:json', 'written by someone else');
    await panel.click('kv-string-save');
    await expect(panel.conflict()).toContainText('Changed since you opened it');
    expect(await admin.get('str:json')).toBe('written by someone else');
    await panel.click('kv-reload');
    await expect(panel.text()).toContainText('written by someone else');

    // A bad escape is named with its position before anything is sent.
    await panel.fill('kv-string-append-value', 'ab\\q');
    await expect(panel.testId('kv-string-append-value-error')).toContainText('position 3');

    // hash: set a new field, change one from its row, delete one; a stale row is refused.
    await panel.open('h:user');
    await panel.fill('kv-hash-field', 'zip');
    await panel.fill('kv-hash-value', '0150');
    await panel.click('kv-hash-save');
    await expect.poll(() => admin.hget('h:user', 'zip')).toBe('0150');
    // The form clears once the page has the edit's answer: the next fill must come after it.
    await expect(panel.testId('kv-hash-field')).toHaveValue('');
    await panel.row('city').getByRole('button', { name: 'Edit' }).click();
    await panel.fill('kv-hash-value', 'Bergen');
    await panel.click('kv-hash-save');
    await expect.poll(() => admin.hget('h:user', 'city')).toBe('Bergen');
    // The view has read the hash again; then a second client changes a field behind it.
    await expect(panel.row('city')).toContainText('Bergen');
    await admin.hset('h:user', 'name', 'changed-behind');
    await panel.row('name').getByTestId('kv-row-delete').click();
    await expect(panel.conflict()).toBeVisible();
    expect(await admin.hget('h:user', 'name')).toBe('changed-behind');
    await panel.click('kv-reload');
    await panel.row('zip').getByTestId('kv-row-delete').click();
    await expect.poll(() => admin.hexists('h:user', 'zip')).toBe(0);

    // list: push at both ends, set an item, remove an item.
    await panel.open('l:jobs');
    await panel.fill('kv-list-value', 'first');
    await panel.click('kv-list-push-head');
    await expect.poll(() => admin.lindex('l:jobs', 0)).toBe('first');
    await expect(panel.testId('kv-list-value')).toHaveValue('');
    await panel.fill('kv-list-value', 'last');
    await panel.click('kv-list-push-tail');
    await expect.poll(() => admin.lindex('l:jobs', -1)).toBe('last');
    await expect(panel.testId('kv-list-value')).toHaveValue('');
    await panel.row('job-1').first().getByRole('button', { name: 'Edit' }).click();
    await panel.fill('kv-list-value', 'job-one');
    await panel.click('kv-list-set');
    await expect.poll(() => admin.lindex('l:jobs', 2)).toBe('job-one');
    await panel.rows().filter({ hasText: 'first' }).getByTestId('kv-row-delete').click();
    await expect.poll(() => admin.lindex('l:jobs', 0)).toBe('job-0');

    // set: add and remove.
    await panel.open('s:tags');
    await panel.fill('kv-set-member', 'blue');
    await panel.click('kv-set-add');
    await expect.poll(() => admin.sismember('s:tags', 'blue')).toBe(1);
    await panel.row('red').getByTestId('kv-row-delete').click();
    await expect.poll(() => admin.sismember('s:tags', 'red')).toBe(0);

    // zset: add, increment, remove.
    await panel.open('z:scores');
    await panel.fill('kv-zset-member', 'dave');
    await panel.fill('kv-zset-score', '7');
    await panel.click('kv-zset-add');
    await expect.poll(() => admin.zscore('z:scores', 'dave')).toBe('7');
    await expect(panel.testId('kv-zset-member')).toHaveValue('');
    await panel.fill('kv-zset-member', 'alice');
    await panel.fill('kv-zset-score', '2.5');
    await panel.click('kv-zset-incr');
    await expect.poll(() => admin.zscore('z:scores', 'alice')).toBe('12.5');
    await panel.row('bob').getByTestId('kv-row-delete').click();
    await expect.poll(() => admin.zscore('z:scores', 'bob')).toBeNull();

    // stream: add an entry, delete one.
    await panel.open('x:events');
    await panel.fill('kv-stream-field-0', 'type');
    await panel.fill('kv-stream-value-0', 'purchase');
    await panel.click('kv-stream-add');
    await expect.poll(() => admin.xlen('x:events')).toBe(3);
    await panel.row('1-1').getByTestId('kv-row-delete').click();
    await expect.poll(() => admin.xlen('x:events')).toBe(2);

    // A binary key (0xff, CR, LF in its name) renamed, then deleted, by its exact bytes.
    await panel.open(BINARY_KEY);
    await panel.rename('bin:\\xfe\\r\\n');
    const renamed = Buffer.from([0x62, 0x69, 0x6e, 0x3a, 0xfe, 0x0d, 0x0a]);
    await expect.poll(() => admin.exists(renamed)).toBe(1);
    expect(await admin.exists(BINARY_KEY)).toBe(0);
    // Renaming onto an existing name needs the overwrite box and a confirmation.
    await panel.open(renamed);
    await panel.rename('s:tags');
    await expect(panel.root().getByRole('alert')).toBeVisible();
    expect(await admin.exists(renamed)).toBe(1);
    await panel.open(renamed);
    await panel.delete();
    await expect.poll(() => admin.exists(renamed)).toBe(0);
    // With the box ticked and the overwrite confirmed, RENAME replaces the other key.
    await panel.open('str:json');
    await panel.rename('s:tags', true);
    await expect.poll(() => admin.type('s:tags')).toBe('string');
    expect(await admin.exists('str:json')).toBe(0);
  });

  test('ops create a key of any type, with a binary name and a TTL', async ({ page, redis, admin }) => {
    // The Keys page shows the form (value/NewKeyForm.tsx) while no key is open.
    const panel = new KeyValuePanel(page);
    await panel.useServer('kvnew', redis);
    await panel.openNone();
    await page.getByTestId('kv-new-type').selectOption('zset');
    await page.getByTestId('kv-new-name').fill('z:new\\xff');
    await page.getByTestId('kv-new-value').fill('m1');
    await page.getByTestId('kv-new-score').fill('4');
    await page.getByTestId('kv-new-ttl').fill('600');
    await page.getByTestId('kv-new-create').click();
    const made = Buffer.concat([Buffer.from('z:new'), Buffer.from([0xff])]);
    await expect.poll(() => admin.zscore(made, 'm1')).toBe('4');
    expect(await admin.ttl(made)).toBeGreaterThan(590);
    // The page opens the new key.
    await expect(panel.root()).toHaveAttribute('data-key', made.toString('base64'));
    // A name that exists is refused: create never overwrites.
    await panel.openNone();
    await page.getByTestId('kv-new-name').fill('z:new\\xff');
    await page.getByTestId('kv-new-value').fill('other');
    await page.getByTestId('kv-new-create').click();
    await expect(page.getByTestId('kv-new').getByRole('alert')).toBeVisible();
    expect(await admin.zscore(made, 'm1')).toBe('4');
  });

  test('decoded views (compressed JSON, msgpack, a bad document) and a streamed download', async ({ page, redis, admin }) => {
    test.setTimeout(60_000);
    const doc = { order: 7, items: ['a', SCRIPT], paid: true };
    await admin.set('dec:gz', gzipSync(Buffer.from(JSON.stringify(doc))));
    await admin.set('dec:mp', Buffer.from(encode({ id: 42, name: IMG })));
    await admin.set('dec:bad', '{"a": [1, 2,, 3]}');
    const blob = Buffer.alloc(700 * 1024);
    for (let i = 0; i < blob.length; i++) blob[i] = (i * 13 + 1) & 0xff;
    await admin.set('dl:blob', blob);
    const panel = new KeyValuePanel(page);
    await panel.useServer('kvdec', redis);

    await panel.open('dec:gz');
    await panel.view('Decoded');
    const facts = panel.testId('kv-decode-facts');
    await expect(facts).toContainText('format json');
    await expect(facts).toContainText('compression gzip');
    await expect(panel.testId('kv-decoded-text')).toContainText('"order": 7');
    await expect(panel.testId('kv-decoded-text')).toContainText(SCRIPT);

    await panel.open('dec:mp');
    await panel.view('Decoded');
    await expect(facts).toContainText('format msgpack');
    await expect(panel.testId('kv-decoded-text')).toContainText(IMG);

    await panel.open('dec:bad');
    await panel.view('JSON');
    await expect(panel.testId('kv-json-why')).toContainText('Not JSON');
    await panel.view('Decoded');
    await panel.testId('kv-decode-as').selectOption('json');
    // The server's reason, as text (keys-decode words it; JSON.parse names no position for this one).
    await expect(panel.testId('kv-decode-error')).toContainText('not valid JSON');

    // 700 KB streamed in chunks, assembled in the page and saved whole.
    await panel.open('dl:blob');
    const saving = page.waitForEvent('download');
    await panel.click('kv-download-start');
    const download = await saving;
    expect(download.suggestedFilename()).toBe('dl_blob.bin');
    const saved = await readFile(await download.path());
    expect(saved.equals(blob)).toBe(true);
    await expect(panel.testId('kv-download')).toHaveAttribute('data-state', 'saved');
  });

  test('a 256 KB string: hex view stays virtualized; the longest main-thread task is printed', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(60_000);
    const big = Buffer.alloc(600 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 0xff;
    await admin.set('big:blob', big);
    await watchLongTasks(page);
    const panel = new KeyValuePanel(page);
    await panel.useServer('kvbig', redis);
    // The page itself is loaded first (its code, its first call): what is measured is the value.
    await admin.set('small', 'x');
    await panel.open('small');
    await expect(panel.text()).toBeVisible();
    await resetLongestTask(page);
    await panel.open('big:blob');
    await expect(panel.testId('kv-string-loaded')).toHaveText('256 KiB of 600 KiB loaded');
    await expect(panel.text()).toBeVisible();
    await page.waitForTimeout(300);
    const openTask = await longestTask(page);
    await resetLongestTask(page);
    await panel.view('Hex');
    await expect(panel.hex()).toContainText('00000000');
    // 16,384 lines of dump, a few dozen in the DOM.
    expect(await panel.hex().locator('.kv-row').count()).toBeLessThan(80);
    await panel.hex().evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect(panel.hex()).toContainText('0003fff0');
    await page.waitForTimeout(300);
    const hexTask = await longestTask(page);
    await resetLongestTask(page);
    await panel.loadMore();
    await expect(panel.testId('kv-string-loaded')).toHaveText('512 KiB of 600 KiB loaded');
    await panel.view('Text');
    await expect(panel.text()).toBeVisible();
    await page.waitForTimeout(300);
    const textTask = await longestTask(page);
    // Chromium reports only tasks over 50 ms: 0 means none was that long.
    const said = (ms: number) => (ms === 0 ? 'none over 50 ms' : `${ms.toFixed(0)} ms`);
    console.log(
      `[keys-value] longest main-thread task: open a 256 KB string (text view): ${said(openTask)}; hex view + scroll to its end: ${said(hexTask)}; load 256 KB more + text view: ${said(textTask)}`,
    );
    await panel.view('Hex');
    await page.screenshot({ path: testInfo.outputPath('string-hex.png'), fullPage: true });
    expect(Math.max(openTask, hexTask, textTask)).toBeLessThan(100);
  });
});

test.describe('Keys value panel for an analyst', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  const PASSWORD = 'e2e-analyst-kv-8f2a';
  let serve: ServeProcess;

  test.beforeEach(async ({ redis, admin }) => {
    await seed(admin, redis.port);
    serve = await startServe({ REDIS_URL: redis.url }, (dir) => addUser(join(dir, 'users.json'), 'ana', 'analyst', PASSWORD));
  });
  test.afterEach(async () => {
    await serve.stop();
  });

  test('sees every value and no edit control', async ({ page, redis }) => {
    await new AppShell(page).signIn(serve.url, 'ana', PASSWORD);
    const panel = new KeyValuePanel(page);
    await panel.useProfile(`REDIS_URL (${redis.host}:${redis.port})`);
    for (const key of ['str:json', 'h:user', 'l:jobs', 's:tags', 'z:scores', 'x:events']) {
      await panel.open(key, serve.url);
      await expect(panel.meta('type')).not.toHaveText('—');
      await expect(panel.rows().or(panel.text()).first()).toBeVisible();
      await expect(panel.editControls()).toHaveCount(0);
    }
  });
});
