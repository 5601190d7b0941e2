import type { Redis } from 'ioredis';
import { SCRATCH_ROOT } from '../../main/core/trials/scratch';
import { shootBothThemes } from '../pages/themeShots';
import { TrialsPage } from '../pages/TrialsPage';
import { expect, test } from '../redisFixture';

const PIPELINE_VARIANTS = ['plain', 'pipelined', 'multi', 'pipelinedMulti'];

/** Every trial scratch key in `db`, counted with SCAN as an admin would. */
async function scratchKeys(admin: Redis, db: number, pattern = `${SCRATCH_ROOT}*`): Promise<number> {
  await admin.select(db);
  let cursor = '0';
  let n = 0;
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    n += keys.length;
  } while (cursor !== '0');
  return n;
}

/** "412,345" -> 412345; "1.25 ms" -> 1.25. */
const figure = (text: string) => Number(text.replace(/,/g, '').replace(/[^\d.]+$/, ''));

test.describe('Pipeline trials page', () => {
  test('a pipeline trial is refused on a DB with keys until confirmed, then compares four variants and keeps each run', async ({
    page,
    redis,
    admin,
  }, testInfo) => {
    test.setTimeout(120_000);
    await admin.set('own:key', 'keep me');
    const trials = new TrialsPage(page);
    await trials.openOn('trials', redis);
    await trials.pick('Pipeline');
    await trials.fill({ n: '2000', batch: '100', sweepN: '300' });

    // The DB holds a key of its own: said beside the checkbox before Start, in the page's words, and Start waits for the tick.
    await expect(trials.fieldError('confirmNonEmpty')).toContainText('db0 holds 1 key of its own');
    await expect(trials.fieldError('confirmNonEmpty')).not.toContainText('confirmNonEmpty');
    await expect(page.getByTestId('trials-start')).toBeDisabled();
    await expect(page.getByText('Tick “Run even if the DB holds keys of its own” or pick an empty DB to start.')).toBeVisible();
    await trials.screenshotAll(testInfo.outputPath('trials-refused.png'));
    // No run was started, so no failed badge: nothing to refuse after the fact.
    await expect(trials.state()).toHaveCount(0);
    expect(await scratchKeys(admin, 0)).toBe(0);

    await trials.check('confirm');
    await expect(trials.fieldError('confirmNonEmpty')).toHaveCount(0);
    await expect(page.getByTestId('trials-start')).toBeEnabled();
    await trials.run('done');

    await expect(trials.resultRows()).toHaveCount(4);
    for (const v of PIPELINE_VARIANTS) {
      await expect(trials.cell(v, 'ops')).toHaveText('2,000');
      await expect(trials.cell(v, 'keys')).toHaveText('2,000');
      await expect(trials.cell(v, 'errors')).toHaveText('0');
    }
    await expect(trials.cell('plain', 'ratio')).toHaveText('1.00×');
    // Each ratio is its row's ops/s over plain's, as the table shows them.
    const plain = figure(await trials.cell('plain', 'opsPerSec').innerText());
    for (const v of PIPELINE_VARIANTS.slice(1)) {
      const ratio = figure(await trials.cell(v, 'ratio').innerText());
      const expected = figure(await trials.cell(v, 'opsPerSec').innerText()) / plain;
      expect(Math.abs(ratio - expected) / expected).toBeLessThan(0.02);
    }
    // One round trip per 100 SETs beats one per SET.
    expect(figure(await trials.cell('pipelined', 'ratio').innerText())).toBeGreaterThan(1);

    await expect(trials.chart('ops').locator('.recharts-bar-rectangle')).toHaveCount(4);
    await expect(trials.sweepRows()).toHaveCount(7);
    await expect(trials.chart('sweep').locator('.recharts-line')).toHaveCount(2);
    await expect(trials.latency()).toHaveCount(0);
    await expect(trials.kept('pipeline')).toHaveCount(1);
    await expect(trials.kept('pipeline').first()).toContainText('N 2,000 · B 100 · sweep 300 · db0');
    await expect(trials.kept('pipeline').first()).toContainText('direct');
    expect(await scratchKeys(admin, 0)).toBe(0);
    expect(await admin.get('own:key')).toBe('keep me');

    // The same through the latency proxy: its measured round trips are shown, and the run is kept beside the first.
    await trials.check('proxy');
    await trials.fill({ latencyMs: '0.3' });
    await trials.run('done');
    await expect(trials.latency()).toBeVisible();
    const direct = figure(await page.getByTestId('trials-rtt-direct').innerText());
    const proxied = figure(await page.getByTestId('trials-rtt-proxied').innerText());
    expect(proxied).toBeGreaterThan(direct);
    await expect(trials.kept('pipeline')).toHaveCount(2);
    await expect(trials.kept('pipeline').first()).toContainText('+0.3 ms each way');
    await expect(trials.report()).toContainText('+0.3 ms each way');
    expect(await scratchKeys(admin, 0)).toBe(0);

    await expect(trials.chart('ops').locator('.recharts-bar-rectangle')).toHaveCount(4);
    await expect(trials.chart('sweep').locator('.recharts-line')).toHaveCount(2);
    await trials.screenshotAll(testInfo.outputPath('pipeline-trials-all.png'));
    await shootBothThemes(page, 'docs/pipeline-trials.png', (path) => trials.screenshot(path, trials.report()));

    // A kept run can be shown again, and removed.
    await trials.kept('pipeline').nth(1).getByTestId('trials-kept-show').click();
    await expect(trials.report()).toContainText('Results of kept run #1');
    await expect(trials.latency()).toHaveCount(0);
    await trials.kept('pipeline').nth(1).getByTestId('trials-kept-remove').click();
    await expect(trials.kept('pipeline')).toHaveCount(1);
    await expect(trials.latency()).toBeVisible();
  });

  test('bad inputs name their field; small load and multiplex trials report their figures', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(90_000);
    const trials = new TrialsPage(page);
    await trials.openOn('trialsload', redis);
    await trials.pick('Load');

    await trials.fill({ clients: 'abc' });
    await trials.start();
    await expect(trials.fieldError('clients')).toContainText('clients must be a number');
    await expect(trials.state()).toHaveCount(0);
    await trials.fill({ clients: '4', n: '0' });
    await trials.start();
    await expect(trials.fieldError('n')).toContainText('n must be at least 1');
    await trials.check('proxy');
    await trials.fill({ n: '2000', latencyMs: '5000' });
    await trials.start();
    // Beside its input, in the page's words: no schema identifier ("latencyMs") in the text.
    await expect(trials.fieldError('latencyMs')).toHaveText('Must be 1000 or less');
    await expect(trials.state()).toHaveCount(0);

    await trials.check('proxy', false);
    await trials.fill({ db: '2', dataSize: '16', keyspace: '100' });
    await trials.run('done');
    await expect(trials.resultRows()).toHaveCount(2);
    for (const v of ['set', 'get']) {
      await expect(trials.cell(v, 'ops')).toHaveText('2,000');
      for (const p of ['p50Ms', 'p95Ms', 'p99Ms', 'maxMs']) await expect(trials.cell(v, p)).toHaveText(/^\d+(\.\d+)? ms$/);
    }
    // 2,000 SETs over 100 random keys write every one of them (a miss has odds of about 1 in 5 million).
    await expect(trials.cell('set', 'keys')).toHaveText('100');
    await expect(trials.cell('set', 'ratio')).toHaveCount(0);
    await expect(trials.chart('ops').locator('.recharts-bar-rectangle')).toHaveCount(2);
    // p50, p95, p99 and max for each command.
    await expect(trials.chart('latency').locator('.recharts-bar-rectangle')).toHaveCount(8);
    await expect(trials.kept('load').first()).toContainText('C 4 · N 2,000 · D 16 B · R 100 · db2');
    expect(await scratchKeys(admin, 2)).toBe(0);
    await trials.screenshotAll(testInfo.outputPath('trials-load.png'));

    await trials.pick('Multiplex');
    await trials.fill({ db: '3', n: '500', batch: '10', dbs: '3' });
    await trials.run('done');
    await expect(trials.resultRows()).toHaveCount(3);
    await expect(trials.cell('blocking', 'ratio')).toHaveText('1.00×');
    await expect(trials.cell('multiplexed', 'ops')).toHaveText('500');
    await expect(trials.kept('multiplex').first()).toContainText('db3–5');
    await expect(trials.kept('load')).toHaveCount(1);
    for (const db of [3, 4, 5]) expect(await scratchKeys(admin, db)).toBe(0);
    await trials.screenshotAll(testInfo.outputPath('trials-multiplex.png'));
  });

  test('a long trial can be cancelled, and it leaves no scratch key behind', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(60_000);
    const trials = new TrialsPage(page);
    await trials.openOn('trialscancel', redis);
    await trials.pick('Pipeline');
    await trials.check('sweep', false);
    await trials.fill({ n: '1000000' });
    await trials.start();
    await expect(trials.state()).toHaveText('running');
    const prefix = `${SCRATCH_ROOT}${await trials.jobId()}:`;
    // It really is writing: scratch keys of this run appear, and the step and its live rate show.
    await expect.poll(() => scratchKeys(admin, 0, `${prefix}*`), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(trials.stat('step')).toHaveText('plain');
    await expect(trials.stat('rate')).toHaveText(/^[\d,]+ ops\/s$/);

    await trials.cancel();
    await expect(trials.state()).toHaveText('cancelled', { timeout: 15_000 });
    await trials.screenshotAll(testInfo.outputPath('trials-cancelled.png'));
    await expect(trials.headline()).toContainText(/cancelled after \d+ variants?; scratch keys removed/);
    // The cancelled event comes after the cleanup: nothing is left by then.
    expect(await scratchKeys(admin, 0)).toBe(0);
    await expect(page.getByTestId('trials-start')).toBeEnabled();
  });
});
