import type { Redis } from 'ioredis';
import { AudiencePage, type Strategy } from '../pages/AudiencePage';
import { shootBothThemes } from '../pages/themeShots';
import { expect, test } from '../redisFixture';

const STRATEGIES: readonly Strategy[] = ['bitmap-lua', 'bitmap-pipeline', 'sets', 'zunionstore'];
const grouped = (n: number) => n.toLocaleString('en-US');

/** Every day from `from` to `to`, both included. */
function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** A value's members, read from its set layout (the contract's default template), to count the audience here and not trust the page. */
async function members(admin: Redis, key: string): Promise<Set<string>> {
  return new Set(await admin.smembers(key));
}

test.describe('Audience trials page', () => {
  test('loads a demo dataset, builds an audience with the chips, and times every strategy with matching counts', async ({ page, redis, admin }) => {
    test.setTimeout(120_000);
    const aud = new AudiencePage(page);
    await aud.openOn('audience', redis);
    const seed = String(redis.port % 1000);
    await aud.loadDemo({ users: '20000', days: '14', seed });
    await expect(aud.demoFigures()).toContainText(`seed ${seed}`);

    // Three attributes as the server lists them: one value of the first, two of the last (OR), and "none of" one of a third.
    const names = await aud.attributeNames();
    expect(names.length).toBeGreaterThanOrEqual(3);
    const [a1, a3, a2] = [names[0] as string, names[1] as string, names.at(-1) as string];
    const v1 = (await aud.chipValues(a1))[0] as string;
    const [x, y] = await aud.chipValues(a2);
    const z = (await aud.chipValues(a3))[0] as string;
    await aud.chip(a1, v1).click();
    await aud.chip(a2, x as string).click();
    await aud.chip(a2, y as string).click();
    await aud.chip(a3, z).click();
    await aud.attribute(a3).getByRole('button', { name: 'none of' }).click();
    await expect(aud.chip(a2, x as string)).toHaveAttribute('aria-pressed', 'true');
    await expect(aud.where()).toHaveValue(new RegExp(`^${a1}=.+ AND \\(${a2}=.+ OR ${a2}=.+\\) AND NOT ${a3}=.+$`));
    await expect(aud.parse()).toHaveAttribute('data-state', 'valid');

    // The range defaults to the days the server has; the audience and its busiest day are counted here from the sets.
    const from = await aud.field('from').inputValue();
    const to = await aud.field('to').inputValue();
    expect(daysOf(from, to)).toHaveLength(14);
    const [s1, sx, sy, sz] = await Promise.all([v1, x, y, z].map((v, i) => members(admin, `attr:${[a1, a2, a2, a3][i]}:${v}:set`)));
    const audience = [...(s1 as Set<string>)].filter((id) => (sx?.has(id) || sy?.has(id)) && !sz?.has(id));
    expect(audience.length).toBeGreaterThan(0);
    let peak = 0;
    for (const day of daysOf(from, to)) {
      const active = await members(admin, `active:${day}:set`);
      peak = Math.max(peak, audience.filter((id) => active.has(id)).length);
    }

    // A first run with the bitmap strategies only, then all four: two saved runs to compare.
    await aud.fill({ trials: '3', warmup: '1' });
    await aud.strategy('sets', false);
    await aud.strategy('zunionstore', false);
    await aud.run();
    await expect(aud.strategyRow('sets')).toHaveCount(0);
    await expect(aud.historyRows()).toHaveCount(1);
    await aud.strategy('sets', true);
    await aud.strategy('zunionstore', true);
    await aud.run();

    await expect(aud.stat('size')).toHaveText(grouped(audience.length));
    await expect(aud.stat('peak')).toHaveText(grouped(peak));
    await expect(aud.stat('counts-match')).toHaveText('counts match');
    await expect(aud.mismatch()).toHaveCount(0);
    await expect(aud.chart('days').locator('.recharts-line-curve')).toBeVisible();
    await expect(aud.chart('latency').locator('.recharts-bar-rectangle')).toHaveCount(STRATEGIES.length);
    for (const s of STRATEGIES) {
      await expect(aud.strategyRow(s)).toHaveAttribute('data-state', 'ran');
      await expect(aud.cell(s, 'runs')).toHaveText('3');
      await expect(aud.cell(s, 'matches')).toHaveText('✓');
      await expect(aud.cell(s, 'audienceSize')).toHaveText(grouped(audience.length));
      await expect(aud.cell(s, 'p50Ms')).toHaveText(/^\d+(\.\d+)? ms$/);
    }
    // Scratch keys are gone once the trial ended.
    expect(await admin.keys('cacheboard:trial:*')).toEqual([]);

    await expect(aud.historyRows()).toHaveCount(2);
    await aud.historyRows().nth(0).getByTestId('aud-history-pick').check();
    await aud.historyRows().nth(1).getByTestId('aud-history-pick').check();
    await expect(aud.compare().locator('tr[data-row="bitmap-lua p50"] [data-col="change"]')).toHaveText(/same|slower|faster/);
    await expect(aud.compare().locator('tr[data-row="audience size"] [data-col="change"]')).toHaveText('same');
    await expect(aud.compare().locator('tr[data-row="sets p50"] td').nth(0)).toHaveText('—');

    // A saved run shows again on demand, and goes back to the latest.
    const older = aud.historyRows().nth(1).getByTestId('aud-history-show');
    await older.click();
    await expect(aud.strategyRow('sets')).toHaveCount(0);
    await older.click();
    await expect(aud.strategyRow('sets')).toHaveAttribute('data-state', 'ran');
    await aud
      .historyRows()
      .nth(1)
      .evaluate((row) => row.closest('.job-table-panel')?.scrollTo({ left: 0 }));
    await shootBothThemes(page, 'docs/audience-trials.png', (path) => aud.screenshot(path));
  });

  test('an own key layout: its attributes are found, a trial counts from its keys, and a bad template is named', async ({ page, redis, admin }, testInfo) => {
    test.setTimeout(90_000);
    // Bitmaps under other names than the demo's: seg:<name>:<value>, seen:<day>, everyone.
    const users = 200;
    const days = ['2024-05-01', '2024-05-02', '2024-05-03'];
    const tier = (id: number) => (id % 3 === 0 ? 'gold' : 'basic');
    const activeOn = (id: number, d: number) => (id + d) % 4 !== 0;
    const p = admin.pipeline();
    for (let id = 0; id < users; id++) {
      p.setbit(`seg:tier:${tier(id)}`, id, 1);
      p.setbit('everyone', id, 1);
      days.forEach((day, d) => {
        if (activeOn(id, d)) p.setbit(`seen:${day}`, id, 1);
      });
    }
    await p.exec();
    // Counted here from the data, not read off the page.
    const gold = Array.from({ length: users }, (_, id) => id).filter((id) => tier(id) === 'gold');
    const peak = Math.max(...days.map((_, d) => gold.filter((id) => activeOn(id, d)).length));

    const aud = new AudiencePage(page);
    await aud.openOn('audience-layout', redis);
    await expect(aud.layoutState()).toHaveText('· the demo’s (default)');
    await aud.layout({ bitmapAttr: 'seg:{name}:{value}', bitmapActive: 'seen:{day}', bitmapAll: 'everyone' });
    await expect(aud.layoutState()).toHaveText('· custom');
    await expect(aud.chip('tier', 'gold')).toBeVisible();
    await aud.chip('tier', 'gold').click();
    await expect(aud.parse()).toHaveAttribute('data-state', 'valid');
    await expect(aud.field('from')).toHaveValue(days[0] as string);
    await expect(aud.field('to')).toHaveValue(days.at(-1) as string);
    await aud.fill({ trials: '2', warmup: '0' });
    await aud.run();
    await expect(aud.stat('size')).toHaveText(grouped(gold.length));
    await expect(aud.stat('peak')).toHaveText(grouped(peak));
    for (const s of ['bitmap-lua', 'bitmap-pipeline'] as const) await expect(aud.cell(s, 'audienceSize')).toHaveText(grouped(gold.length));
    // No sets or zsets under this layout: those strategies say why they did not run.
    await expect(aud.strategyRow('sets')).toHaveAttribute('data-state', 'skipped');

    // The layout is kept for the profile across a reload.
    await page.reload();
    await expect(aud.layoutState()).toHaveText('· custom');
    await expect(aud.chip('tier', 'gold')).toBeVisible();

    // A template missing a placeholder is named beside its input, and nothing can start.
    await aud.layout({ bitmapAttr: 'seg:{name}' });
    await expect(aud.layoutState()).toHaveText('· needs a fix');
    await expect(page.getByTestId('field-error-layout.bitmapAttr')).toContainText('{name} and {value} once each');
    await expect(aud.runButton()).toBeDisabled();
    await aud.screenshot(testInfo.outputPath('audience-layout.png'));
    await page.getByTestId('aud-layout-reset').click();
    await expect(aud.layoutState()).toHaveText('· the demo’s (default)');
  });

  test('a typed expression: a syntax error at its position, unknown attributes named, markup kept as text', async ({ page, redis }) => {
    test.setTimeout(90_000);
    const aud = new AudiencePage(page);
    await aud.openOn('audience-typed', redis);
    await aud.loadDemo({ users: '300', days: '3', seed: '5' });
    const [a, b] = (await aud.attributeNames()) as [string, string];
    const v = (await aud.chipValues(a))[0] as string;

    const open = `${a}=${v} AND (${b}=`;
    await aud.where().fill(open);
    await expect(aud.parse()).toHaveAttribute('data-state', 'invalid');
    await expect(aud.parseError()).toHaveAttribute('data-position', String(open.length));
    await expect(aud.parseError().locator('.aud-caret')).toHaveText(`${open}\n${' '.repeat(open.length)}^`);
    await expect(aud.parseError()).toContainText(`column ${open.length + 1}`);
    await expect(aud.runButton()).toBeDisabled();

    const stray = `${a}=${v} AND $ OR x=1`;
    await aud.where().fill(stray);
    await expect(aud.parseError()).toHaveAttribute('data-position', String(stray.indexOf('$')));
    await expect(aud.parseError().locator('.aud-caret-mark')).toHaveText(`${' '.repeat(stray.indexOf('$'))}^`);

    await aud.where().fill(`${a}=${v} AND planet=mars AND ${a}=nosuchvalue`);
    await expect(aud.parse()).toHaveAttribute('data-state', 'unknown');
    await expect(aud.unknown()).toContainText('unknown attribute "planet" (in planet=mars)');
    await expect(aud.unknown()).toContainText(`no users hold ${a}=nosuchvalue`);

    // Markup typed as a value is a quoted string: the server names it back, the page shows its characters and makes no element.
    const odd = '<img src=x onerror=window.__pwned=1>';
    await aud.where().fill(`${a}="${odd}"`);
    await expect(aud.parse()).toHaveAttribute('data-state', 'unknown');
    await expect(aud.unknown()).toContainText(`no users hold ${a}="${odd}"`);
    await expect(page.getByTestId('aud-normalized')).toContainText(odd);
    await expect(page.locator('img')).toHaveCount(0);

    // The server's refusal lands beside its input.
    for (const s of STRATEGIES) await aud.strategy(s, false);
    await aud.runButton().click();
    await expect(page.getByTestId('field-error-strategies')).toContainText('at least one strategy');
    await expect(aud.state()).toHaveCount(0);
  });
});
