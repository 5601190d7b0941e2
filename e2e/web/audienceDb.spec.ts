import { AudiencePage } from '../pages/AudiencePage';
import { expect, test } from '../redisFixture';

test.describe('Audience trials: where the data goes, and a missing value', () => {
  test('the DB is in the Demo dataset box and both headers follow it; `age= OR region=NE` fails at the empty value, said once', async ({
    page,
    redis,
  }, testInfo) => {
    const aud = new AudiencePage(page);
    await aud.openOn('auddb', redis);
    const demo = page.getByTestId('aud-demo');
    const addr = `${redis.host}:${redis.port}`;
    await expect(page.getByTestId('aud-demo-where')).toHaveText(`${addr}/0`);
    await expect(page.getByTestId('aud-where-to')).toHaveText(`${addr}/0`);

    // The one DB input of the page sits in the Demo box, which is where it decides most.
    await expect(demo.getByTestId('aud-db')).toHaveCount(1);
    await expect(page.getByTestId('aud-db')).toHaveCount(1);
    const db = String(1 + (redis.port % 14));
    await aud.fill({ db });
    await expect(page.getByTestId('aud-demo-where')).toHaveText(`${addr}/${db}`);
    await expect(page.getByTestId('aud-where-to')).toHaveText(`${addr}/${db}`);

    // OR is the operator, not the value: the error stands at the empty value, once.
    const text = 'age= OR region=NE';
    await aud.where().fill(text);
    await expect(aud.parse()).toHaveAttribute('data-state', 'invalid');
    await expect(aud.parseError()).toHaveAttribute('data-position', String(text.indexOf('=') + 1));
    await expect(aud.parseError().locator('.aud-caret-mark')).toHaveText(`${' '.repeat(text.indexOf('=') + 1)}^`);
    await expect(page.getByTestId('aud-parse-message')).toHaveText('column 5: age= has no value (OR is an operator here; to mean the word, quote it: "OR")');
    await expect(page.getByText('has no value')).toHaveCount(1);
    await expect(aud.parseError()).not.toContainText('expected');
    await expect(aud.runButton()).toBeDisabled();
    await page.screenshot({ path: testInfo.outputPath('audience-db-parse.png'), fullPage: true });
  });
});
