import { createHash, randomBytes } from 'node:crypto';
import { seenOf, type KeyMeta } from '../../app/schemas/keys';
import { AppShell } from '../pages/AppShell';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { KeysPage } from '../pages/KeysPage';
import { KeyValuePanel } from '../pages/KeyValuePanel';
import { callFromPage, type CallReply } from '../pages/pageSocket';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

/** The write controls of the value panel (KeyValuePanel.editControls covers the forms and rows too). */
const WRITE_BUTTONS = ['kv-string-edit', 'kv-ttl-open', 'kv-rename-open', 'kv-delete-open'] as const;

test.describe('Keys edits and roles', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  const server = useServeWithRoles();

  test('an analyst sees no edit controls, and the server refuses the edit call the page makes anyway', async ({ page, browser, redis, admin }, testInfo) => {
    test.setTimeout(60_000);
    const serve = server();
    // A value nobody could guess, so "unchanged" means this value and no other.
    const value = `v-${randomBytes(6).toString('hex')}`;
    await admin.set('acct:1', value);
    await admin.hset('acct:profile:1', { name: 'ann', plan: 'gold' });

    // Ops adds an ordinary, editable profile (the env one is read-only: a refusal there would
    // prove nothing about roles), and sees the write controls on the key: the locators are live.
    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    await page.goto(`${serve.url}/#/connections`);
    const profileName = `keys-roles-${redis.port}`;
    await new ConnectionsPage(page).add({ name: profileName, host: redis.host, port: String(redis.port) });
    const opsPanel = new KeyValuePanel(page);
    await opsPanel.useProfile(profileName);
    await opsPanel.open('acct:1', serve.url);
    await expect(new KeysPage(page).openColumn()).toHaveAttribute('data-can-edit', 'true');
    for (const id of WRITE_BUTTONS) await expect(opsPanel.testId(id)).toBeVisible();
    const profileId = await new KeysPage(page).profileId();

    const context = await browser.newContext();
    try {
      const anaPage = await context.newPage();
      await new AppShell(anaPage).signIn(serve.url, ANALYST.name, ANALYST.password);
      const panel = new KeyValuePanel(anaPage);
      await panel.useProfile(profileName);
      await panel.open('acct:1', serve.url);
      await expect(panel.meta('type')).toHaveText('string');
      await expect(panel.text()).toHaveText(value);
      await expect(new KeysPage(anaPage).openColumn()).toHaveAttribute('data-can-edit', 'false');
      for (const id of WRITE_BUTTONS) await expect(panel.testId(id)).toHaveCount(0);
      await expect(panel.editControls()).toHaveCount(0);
      await expect(anaPage.getByTestId('keys-new')).toHaveCount(0);
      await panel.open('acct:profile:1', serve.url);
      await expect(panel.row('plan')).toContainText('gold');
      await expect(panel.editControls()).toHaveCount(0);
      await panel.open('acct:1', serve.url);
      await new KeysPage(anaPage).screenshot(testInfo.outputPath('keys-analyst.png'));

      // The same page, skipping its UI: reads pass (the socket and session are good), and
      // every kind of edit, each well-formed and naming what the view showed, is refused.
      const where = { profileId, key: b64('acct:1') };
      const read = await callFromPage(anaPage, 'keys.get', where);
      expect(read.ok, JSON.stringify(read)).toBe(true);
      if (!read.ok) throw new Error(`keys.get failed: ${read.error.message}`);
      const seen = seenOf(read.output as KeyMeta);
      const setValue = { op: 'string.set', value: b64('by-analyst'), expectSha1: createHash('sha1').update(value).digest('hex'), seen };
      const edits = [
        setValue,
        { op: 'string.append', value: b64('+x'), seen },
        { op: 'ttl.set', ttlSeconds: 5, seen },
        { op: 'rename', to: b64('acct:stolen'), overwrite: true, seen },
        { op: 'delete', seen },
      ];
      for (const edit of edits) expectForbidden(await callFromPage(anaPage, 'keys.edit', { ...where, edit }), edit.op);
      const create = { op: 'create', type: 'string', value: b64('x'), ttlSeconds: null };
      expectForbidden(await callFromPage(anaPage, 'keys.edit', { profileId, key: b64('acct:new'), edit: create }), 'create');
      const hashRead = await callFromPage(anaPage, 'keys.get', { profileId, key: b64('acct:profile:1') });
      if (!hashRead.ok) throw new Error(`keys.get failed: ${hashRead.error.message}`);
      const hashSet = { op: 'hash.set', field: b64('plan'), value: b64('free'), expectValue: b64('gold'), seen: seenOf(hashRead.output as KeyMeta) };
      expectForbidden(await callFromPage(anaPage, 'keys.edit', { profileId, key: b64('acct:profile:1'), edit: hashSet }), 'hash.set');

      // Redis holds what it held.
      expect(await admin.get('acct:1')).toBe(value);
      expect(await admin.ttl('acct:1')).toBe(-1);
      expect(await admin.exists('acct:stolen', 'acct:new')).toBe(0);
      expect(await admin.hget('acct:profile:1', 'plan')).toBe('gold');

      // The control: the very same call from the ops page goes through, and is audited as hers.
      const opsReply = await callFromPage(page, 'keys.edit', { ...where, edit: setValue });
      expect(opsReply.ok, JSON.stringify(opsReply)).toBe(true);
      expect(await admin.get('acct:1')).toBe('by-analyst');
      const audit = await callFromPage(page, 'audit.list', { limit: 200 });
      if (!audit.ok) throw new Error(`audit.list failed: ${audit.error.message}`);
      const entries = (audit.output as { entries: { user: string; action: string; outcome: string }[] }).entries;
      expect(entries.filter((e) => e.action.startsWith('keys.')).map((e) => `${e.user} ${e.action}`)).toContain(`${OPS.name} keys.string.set`);
      // The analyst's attempts are on the record too, each as refused: none ran.
      expect(entries.filter((e) => e.user === ANALYST.name).map((e) => `${e.action} ${e.outcome}`)).toEqual(Array(edits.length + 2).fill('keys.edit refused'));
    } finally {
      await context.close();
    }
  });
});

function expectForbidden(reply: CallReply, op: string): void {
  expect(reply, op).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: 'Only ops users can do this; you are signed in as analyst.' } });
}
