import { readFile } from 'node:fs/promises';
import { REPLY_DISPLAY_ELEMENTS } from '../../app/schemas/console';
import { ConsolePage } from '../pages/ConsolePage';
import { longestTask, resetLongestTask, watchLongTasks } from '../pages/longTasks';
import { expect, test } from '../redisFixture';

// Playwright's trace snapshots the DOM on every poll of an expect, on the page's own main
// thread: with it on, the longest task measured is the harness's (60-120 ms on a loaded box),
// not the page's. This file holds the one measure, so the trace is off for it alone.
test.use({ trace: 'off' });

test.describe('Console page: a reply of a million elements', () => {
  test('a 1,000,000-element reply is cut at the display bound without a long main-thread task, and downloads whole', async ({
    page,
    redis,
    admin,
  }, testInfo) => {
    test.setTimeout(120_000);
    const n = 1_000_000;
    for (let from = 0; from < n; from += 50_000) {
      await admin.rpush('big', ...Array.from({ length: 50_000 }, (_, i) => String(from + i)));
    }
    await watchLongTasks(page);
    const c = new ConsolePage(page);
    await c.openOn('console-big', redis);
    await resetLongestTask(page);
    const e = await c.answer('LRANGE big 0 -1');
    await expect(e.getByTestId('console-cut')).toContainText(
      `Shown: ${(REPLY_DISPLAY_ELEMENTS - 1).toLocaleString('en-US')} of ${n.toLocaleString('en-US')} elements`,
    );
    const tree = e.getByTestId('console-reply-tree');
    // Only the lines in view are drawn.
    expect(await c.lines(e).count()).toBeLessThan(100);
    await tree.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    // The list is one of the bound's elements: the rest of its items are left out.
    const shownItems = REPLY_DISPLAY_ELEMENTS - 1;
    await expect(e.getByTestId('console-more')).toHaveText(`… ${(n - shownItems).toLocaleString('en-US')} more not shown`);
    const longest = await longestTask(page);
    const said = longest === 0 ? 'none of 50 ms or more' : `${longest.toFixed(0)} ms`;
    testInfo.annotations.push({ type: 'longest main-thread task', description: said });
    console.log(`Console, LRANGE of a 1,000,000-element list: longest main-thread task ${said}`);
    expect(longest).toBeLessThan(100);

    // The whole reply, as redis-cli prints it, in the download.
    const saving = page.waitForEvent('download');
    await e.getByTestId('console-download-start').click();
    const download = await saving;
    const text = await readFile(await download.path(), 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(n);
    expect(lines[n - 1]).toBe(`${n}) "${n - 1}"`);
    await expect(e.getByTestId('console-download')).toHaveAttribute('data-state', 'saved');
  });
});
