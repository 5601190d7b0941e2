import type { Redis } from 'ioredis';
import { MetricsPage } from '../pages/MetricsPage';
import { SamplingPage } from '../pages/SamplingPage';
import { expect, test } from '../redisFixture';

/** A count as the page writes it: "3,000". */
const formatCount = (n: number) => n.toLocaleString('en-US');

const HTML_KEY = '<img src=x onerror=alert(1)>';
const FORMULA_KEY = "=cmd|' /C calc'!A0";
/** `bin:` then 0xff, CR, LF: not UTF-8, and control characters a table row must not break on. */
const BINARY_KEY = Buffer.from([0x62, 0x69, 0x6e, 0x3a, 0xff, 0x0d, 0x0a]);

interface Mix {
  strings: number;
  hashes: number;
  sets: number;
  /** Keys under each top-level prefix. */
  prefixes: Record<string, number>;
}

/**
 * A known keyspace: strings under user: and cache:page: (the cache ones with TTLs),
 * hashes under user:profile:, sets under tag:, and three odd keys with big values so
 * they lead the top-by-memory table.
 */
async function writeMix(admin: Redis, seed: number): Promise<Mix> {
  const users = 30 + (seed % 20);
  const pages = 20 + (seed % 10);
  const profiles = 15 + (seed % 15);
  const tags = 8 + (seed % 8);
  const p = admin.pipeline();
  for (let i = 0; i < users; i++) p.set(`user:${i}`, `name-${i}`);
  for (let i = 0; i < pages; i++) p.set(`cache:page:${i}`, `<html>${i}</html>`, 'EX', i % 2 === 0 ? 30 : 600);
  for (let i = 0; i < profiles; i++) p.hset(`user:profile:${i}`, { name: `n${i}`, age: String(20 + i), city: 'x' });
  for (let i = 0; i < tags; i++) p.sadd(`tag:${i}`, 'a', 'b', String(i));
  p.set(HTML_KEY, 'h'.repeat(6000));
  p.set(FORMULA_KEY, 'f'.repeat(5000));
  p.set(BINARY_KEY, 'b'.repeat(4000));
  await p.exec();
  return {
    strings: users + pages + 3,
    hashes: profiles,
    sets: tags,
    prefixes: { 'user:': users + profiles, 'cache:': pages, 'tag:': tags },
  };
}

test.describe('Sampling page', () => {
  test('a census counts every type exactly, shows prefixes and odd keys as text, and exports CSV', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(60_000);
    const mix = await writeMix(admin, redis.port);
    page.on('dialog', (d) => {
      throw new Error(`a dialog opened: ${d.message()}`);
    });
    const sampling = new SamplingPage(page);
    await sampling.openOn('sampling', redis);
    await sampling.run('census', { scanCount: '50' });

    const total = mix.strings + mix.hashes + mix.sets;
    await expect(sampling.summary('dbsize')).toHaveText(String(total));
    await expect(sampling.summary('keys-examined')).toHaveText(String(total));
    await expect(sampling.typeCell('string', 'count')).toHaveText(String(mix.strings));
    await expect(sampling.typeCell('hash', 'count')).toHaveText(String(mix.hashes));
    await expect(sampling.typeCell('set', 'count')).toHaveText(String(mix.sets));
    await expect(sampling.typeRows()).toHaveCount(3);
    // A census is exact: no interval column.
    await expect(sampling.typeCell('string', 'ci')).toHaveCount(0);

    for (const [prefix, count] of Object.entries(mix.prefixes)) {
      await expect(sampling.prefixRow(prefix).locator('[data-col="keys"]')).toHaveText(String(count));
    }
    await sampling.openPrefix('user:');
    await expect(sampling.prefixRow('user:profile:').locator('[data-col="keys"]')).toHaveText(String(mix.hashes));

    // Untrusted key names are text: the markup shows as characters and makes no element.
    const top = sampling.topByMemory();
    await expect(top).toContainText(HTML_KEY);
    await expect(top).toContainText(FORMULA_KEY);
    await expect(top).toContainText('bin:\\xff\\r\\n');
    await expect(page.locator('img')).toHaveCount(0);
    await expect(top.locator('tbody tr').first()).toContainText(HTML_KEY);

    for (const chart of ['types', 'memory', 'ttl', 'size', 'length', 'namespaces'] as const) {
      await expect(sampling.chart(chart).locator('.recharts-bar-rectangle').first()).toBeVisible();
    }

    const csv = await sampling.export('csv');
    expect(csv.name).toMatch(/^sampling-sampling-\d+-db0-census-.*\.csv$/);
    const lines = csv.text.split('\r\n');
    const types = lines.indexOf('types');
    expect(types).toBeGreaterThan(0);
    expect(lines.slice(types + 2, types + 5).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(
      expect.arrayContaining([`string,${mix.strings}`, `hash,${mix.hashes}`, `set,${mix.sets}`]),
    );
    // The formula-looking key is neutralised with a leading quote; the HTML one is kept as is.
    expect(lines.some((l) => l.includes(`,'${FORMULA_KEY},`))).toBe(true);
    expect(lines.some((l) => l.includes(`,${HTML_KEY},`))).toBe(true);
    // namespaces: prefix, parent, depth, count, …
    expect(lines.find((l) => l.startsWith('user:,,'))?.split(',')[3]).toBe(String(mix.prefixes['user:']));

    const json = await sampling.export('json');
    const report = JSON.parse(json.text) as { keysExamined: number; method: string };
    expect(report).toMatchObject({ keysExamined: total, method: 'census' });

    await sampling.screenshot(testInfo.outputPath('sampling.png'));

    // The run is kept for the profile: another page and back shows the same report.
    await new MetricsPage(page).open();
    await sampling.open();
    await expect(sampling.state()).toHaveText('done');
    await expect(sampling.typeCell('hash', 'count')).toHaveText(String(mix.hashes));
  });

  test('a sample shows confidence intervals and estimates scaled to DBSIZE', async ({ page, redis, admin }, testInfo) => {
    const mix = await writeMix(admin, redis.port);
    // More keys than draws: a DB no bigger than the sample gets a census instead.
    const pad = admin.pipeline();
    for (let i = 0; i < 900; i++) pad.set(`pad:${i}`, 'v');
    await pad.exec();
    const sampling = new SamplingPage(page);
    await sampling.openOn('sample', redis);
    await sampling.run('sample', { samples: '400' });

    await expect(sampling.summary('keys-examined')).toHaveText('400');
    await expect(sampling.summary('dbsize')).toHaveText(formatCount(mix.strings + mix.hashes + mix.sets + 900));
    await expect(sampling.summary('estimated-memory')).toContainText('≈');
    await expect(sampling.typeCell('string', 'ci')).toContainText('±');
    await expect(sampling.typeCell('string', 'estimated-count')).toContainText('≈');
    await expect(sampling.chart('types').locator('.recharts-errorBar').first()).toBeAttached();
    await sampling.screenshot(testInfo.outputPath('sampling-sample.png'));
  });

  test('every sampled memory figure has its 95% interval or says it is not estimable; lengths rank in one unit', async ({ page, redis, admin }, testInfo) => {
    // Many small strings, a few short lists, some long lists and long strings: memory with a heavy tail,
    // and lengths in two units (50,000 bytes against 2,000 elements). Ten of each long kind among
    // ~4,000 keys, so 3,000 draws surely meet one.
    const p = admin.pipeline();
    for (let i = 0; i < 4_000; i++) p.set(`tail:s:${i}`, `v${i}`);
    for (let i = 0; i < 8; i++) p.rpush(`tail:l:${i}`, 'a', 'b');
    for (let i = 0; i < 10; i++) {
      p.rpush(`tail:l:long:${i}`, ...Array.from({ length: 2_000 }, (_, j) => `item-${j}`));
      p.set(`tail:s:long:${i}`, 'x'.repeat(50_000));
    }
    await p.exec();
    const sampling = new SamplingPage(page);
    await sampling.openOn('sampleci', redis);
    await sampling.run('sample', { samples: '3000' });

    const rows = await sampling.typeRows().all();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      // "12.3 KiB – 15.6 KiB", or "not estimable" and why: never a bare "≈ 11.5 MiB".
      await expect(row.locator('[data-col="memory-interval"]')).toHaveText(
        / – |not estimable\S*\s*(only \d+ key|one key|the draws are skewed|the server holds|the sample missed)/,
      );
    }
    await expect(sampling.report().locator('tfoot [data-col="memory-interval"]')).toHaveText(/ – |not estimable/);
    await expect(sampling.summary('estimated-memory').locator('..')).toContainText(/95%: .+ – |not estimable: /);
    // Elements and bytes are not one scale: the long string is not in the elements table, and leads its own.
    const elements = page.getByTestId('sampling-top-length');
    await expect(elements.locator('caption')).toContainText('length in elements');
    await expect(elements.getByRole('row').filter({ hasText: 'tail:s:' })).toHaveCount(0);
    await expect(elements.getByRole('row').nth(1)).toContainText('tail:l:long:');
    const strings = page.getByTestId('sampling-top-strlen');
    await expect(strings.locator('caption')).toContainText('strings by length in bytes');
    await expect(strings.getByRole('row').nth(1)).toContainText('tail:s:long:');
    await sampling.screenshot(testInfo.outputPath('sampling-intervals.png'));
    await page.getByTestId('sampling-types').screenshot({ path: testInfo.outputPath('sampling-intervals-types.png') });
  });

  test('a sample is honest about what it cannot tell: unreliable memory, big keys by chance, keys per prefix estimated; a small DB gets a census', async ({
    page,
    redis,
    admin,
  }, testInfo) => {
    test.setTimeout(60_000);
    // 3,000 small strings hold ~200 KB; three 1 MB strings hold most of the memory, and 300 draws rarely meet one.
    const p = admin.pipeline();
    for (let i = 0; i < 3_000; i++) p.set(`s:${i}`, `value-${i}`);
    for (let i = 0; i < 3; i++) p.set(`huge:${i}`, 'x'.repeat(1_000_000));
    await p.exec();
    const sampling = new SamplingPage(page);
    await sampling.openOn('honest', redis);
    await sampling.run('sample', { samples: '300' });

    // Drawn or missed, the huge keys make the total unreliable, and the page points to the census.
    const memory = sampling.summary('estimated-memory').locator('..');
    await expect(memory).toContainText('unreliable');
    await expect(memory).toContainText('run a census');
    await expect(page.getByTestId('sampling-bigkeys-caveat')).toContainText('A sample finds big keys only by chance');
    // Prefix rows count keys estimated from the draws, with their interval, never the draws as keys.
    const keys = sampling.prefixRow('s:').locator('[data-col="keys"]');
    await expect(keys).toContainText('≈');
    await expect(keys.locator('[data-col="keys-interval"]')).toHaveText(/^95%: [\d,]+ – [\d,]+ · [\d,]+ draws$/);
    await sampling.screenshot(testInfo.outputPath('sampling-honest.png'));

    // The census the page offers measures every key: the huge ones lead, and the keys are counted.
    await page.getByTestId('sampling-switch-census').click();
    await expect(page.getByTestId('sampling-method-census')).toBeChecked();
    await sampling.start();
    await expect(sampling.state()).toHaveText('done', { timeout: 30_000 });
    await expect(sampling.topByMemory().locator('tbody tr').first()).toContainText('huge:');
    await expect(sampling.prefixRow('s:').locator('[data-col="keys"]')).toHaveText(formatCount(3_000));
    await expect(page.getByTestId('sampling-bigkeys-caveat')).toHaveCount(0);

    // A DB with fewer keys than the draws asked for gets a census, and the report says so.
    await admin.flushdb();
    const small = admin.pipeline();
    for (let i = 0; i < 50; i++) small.set(`k:${i}`, 'v');
    await small.exec();
    await sampling.run('sample', { samples: '10000' });
    await expect(page.getByTestId('sampling-warnings')).toContainText('every key was measured (a census) instead of a sample');
    await expect(sampling.prefixRow('k:').locator('[data-col="keys"]')).toHaveText('50');
  });

  test('errors name their field, an empty DB says so, and a slow census can be cancelled', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(60_000);
    await writeMix(admin, redis.port);
    const sampling = new SamplingPage(page);
    await sampling.openOn('samplingcancel', redis);

    await sampling.method('census');
    await sampling.fill('match', 'k'.repeat(300));
    await sampling.start();
    await expect(sampling.fieldError('match')).toContainText('match');
    await expect(sampling.state()).toHaveCount(0);

    await sampling.fill('match', '');
    await sampling.fill('db', '5');
    await sampling.start();
    await expect(page.getByTestId('sampling-empty')).toContainText('DB 5 is empty', { timeout: 15_000 });
    await expect(sampling.chart('types')).toHaveCount(0);

    // Ten keys per SCAN and two seconds between batches: slow enough to cancel mid-way.
    await sampling.fill('db', '');
    await sampling.fill('scanCount', '10');
    await sampling.fill('pauseMs', '2000');
    await sampling.start();
    await expect(sampling.state()).toHaveText('running');
    await expect(page.getByTestId('sampling-examined')).not.toHaveText('0', { timeout: 15_000 });
    // The report fills in from partial reports while the run goes.
    await expect(sampling.report()).toContainText('partial', { timeout: 15_000 });
    await expect(sampling.chart('types').locator('.recharts-bar-rectangle').first()).toBeVisible();
    await expect(sampling.state()).toHaveText('running');
    await sampling.screenshot(testInfo.outputPath('sampling-running.png'));
    await sampling.cancel();
    await expect(sampling.state()).toHaveText('cancelled', { timeout: 15_000 });
    await expect(sampling.headline()).toContainText(/cancelled after \d+ keys/);
    await expect(sampling.report()).toContainText('partial');
    await sampling.screenshot(testInfo.outputPath('sampling-cancelled.png'));
  });
});
