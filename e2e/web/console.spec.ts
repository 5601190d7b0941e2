import { Cluster } from 'ioredis';
import { startCluster, type TestCluster } from '../../testing/cluster';
import { AppShell } from '../pages/AppShell';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { ConsolePage } from '../pages/ConsolePage';
import { shootBothThemes } from '../pages/themeShots';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

const HOSTILE_VALUE = '<img src=x onerror=alert(1)>';
/** `evil:` then 0xff, CR, LF and a right-to-left override: not UTF-8, and characters a line must not act on. */
const HOSTILE_KEY = Buffer.concat([Buffer.from('evil:'), Buffer.from([0xff, 0x0d, 0x0a]), Buffer.from('\u202egpj', 'utf8')]);

test.describe('Console page', () => {
  test.beforeEach(({ page }) => {
    // A value that ran as markup would open one.
    page.on('dialog', (d) => {
      throw new Error(`a dialog opened: ${d.message()}`);
    });
  });

  test('autocomplete from the server: "hse" offers HSET, Tab takes it, its syntax shows; lines run in order; ↑ recalls', async ({ page, redis, admin }) => {
    const c = new ConsolePage(page);
    await c.openOn('console-complete', redis);

    await c.type('hse');
    await expect(c.suggestions()).toBeVisible();
    await expect(c.option('HSET')).toHaveAttribute('aria-selected', 'true');
    await expect(c.option('HSETNX')).toBeVisible();
    // The active choice's docs, from this server's COMMAND DOCS.
    await expect(page.getByTestId('console-suggestions').getByTestId('console-docs')).toContainText('since 2.0.0');
    await expect(c.input()).toHaveAttribute('aria-expanded', 'true');
    await c.input().press('Tab');
    await expect(c.input()).toHaveValue('HSET ');
    await expect(c.suggestions()).toHaveCount(0);
    await expect(c.syntax()).toContainText('HSET key field value [field value ...]');

    // A subcommand list opens on its own; the arrows choose and Enter takes the choice.
    await c.input().fill('');
    await c.type('config ');
    await expect(c.option('GET')).toBeVisible();
    await c.type('ge');
    await expect(c.option('GET')).toHaveAttribute('aria-selected', 'true');
    await c.input().press('Escape');
    await expect(c.suggestions()).toHaveCount(0);

    // Several lines, one command each, run in order.
    const n = 3 + (redis.port % 5);
    const entries = await c.run('DEL h', `HSET h ${Array.from({ length: n }, (_, i) => `f${i} v${i}`).join(' ')}`, 'HLEN h');
    await expect(entries).toHaveAttribute('data-status', 'done');
    await expect(c.entries().nth(1)).toContainText(`(integer) ${n}`);
    await expect(c.entries().last()).toContainText(`(integer) ${n}`);
    expect(await admin.hlen('h')).toBe(n);
    // A screen reader hears how the last one ended, not its reply.
    await expect(page.getByTestId('console-status')).toHaveText(/^HLEN done in [\d.]+ ms\.$/);

    // ↑ walks back through this session's lines, ↓ comes back to the draft.
    await c.input().fill('draft');
    await c.input().press('ArrowUp');
    await expect(c.input()).toHaveValue('HLEN h');
    await c.input().press('ArrowUp');
    await expect(c.input()).toHaveValue(/^HSET h f0 v0/);
    await c.input().press('ArrowDown');
    await c.input().press('ArrowDown');
    await expect(c.input()).toHaveValue('draft');

    // A quoting error stops the batch at its line, names the column, and gives the lines back.
    await c.input().fill('SET q1 a\nSET q2 "open\nSET q3 c');
    await c.input().press('Enter');
    await expect(c.inputError()).toContainText('Line 2');
    await expect(c.inputError()).toContainText('Column');
    await expect(c.input()).toHaveValue('SET q2 "open\nSET q3 c');
    expect(await admin.get('q1')).toBe('a');
    expect(await admin.exists('q3')).toBe(0);

    // SELECT moves the console's DB: the prompt and the DB tag follow.
    await c.answer('SELECT 2');
    await expect(c.db()).toHaveText('DB 2');
    await expect(c.prompt()).toContainText('[2]>');
    await c.answer('SET only:db2 x');
    await admin.select(2);
    expect(await admin.get('only:db2')).toBe('x');
    await admin.select(0);

    // The picture: a few commands run, and the list open with the active choice's docs.
    await c.input().fill('');
    await c.type('zra');
    await expect(c.option('ZRANGE')).toBeVisible();
    await c.input().press('ArrowDown');
    await expect(c.option('ZRANGE')).toHaveAttribute('aria-selected', 'true');
    await shootBothThemes(page, 'docs/console-complete.png', (path) => c.screenshot(path));
    await c.input().press('Escape');

    // The history is the profile's, kept by the server: a reload recalls it (a new console: DB 0 again).
    await page.reload();
    await c.open();
    await expect(c.db()).toHaveText('DB 0');
    await c.input().click();
    await c.input().press('ArrowUp');
    await expect(c.input()).toHaveValue('SET only:db2 x');
    await c.input().press('ArrowUp');
    await expect(c.input()).toHaveValue('SELECT 2');
  });

  test('a nested reply folds and unfolds; RESP3 replies keep their types', async ({ page, redis, admin }) => {
    const c = new ConsolePage(page);
    await c.openOn('console-nested', redis);
    const entriesOf = 2 + (redis.port % 3);
    for (let i = 1; i <= entriesOf; i++) await admin.xadd('s', `${i}-0`, 'field', `v${i}`, 'other', `w${i}`);

    const x = await c.answer('XRANGE s - +');
    // The reply, then per entry: itself, its id, its fields (an array), each field and value.
    const all = 1 + entriesOf * 7;
    const tree = x.getByTestId('console-reply-tree');
    await expect(tree).toHaveAttribute('data-lines', String(all));
    await expect(x).toContainText('"field"');
    await c.toggle(x, 1, '1)').click();
    await expect(tree).toHaveAttribute('data-lines', String(all - 6));
    await expect(c.toggle(x, 1, '1)')).toHaveAttribute('aria-expanded', 'false');
    await expect(c.lines(x).nth(2)).toContainText('2)');
    await c.toggle(x, 1, '1)').click();
    await expect(tree).toHaveAttribute('data-lines', String(all));
    await expect(c.lines(x).nth(2)).toContainText('"1-0"');
    await x.getByRole('button', { name: 'Fold all', exact: true }).click();
    await expect(tree).toHaveAttribute('data-lines', String(1 + entriesOf));
    await x.getByRole('button', { name: 'Unfold all', exact: true }).click();
    await expect(tree).toHaveAttribute('data-lines', String(all));

    // RESP3: a map with => between keys and values, doubles and nulls by name.
    await admin.hset('m', { a: '1', b: '2' });
    await admin.zadd('z', 1.5, 'one');
    await c.protocol(3);
    const map = await c.answer('HGETALL m');
    await expect(map.getByTestId('console-node-reply')).toHaveAttribute('data-type', 'map');
    await expect(map).toContainText('"a" => "1"');
    // Copy gives the reply as redis-cli prints it.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await map.getByTestId('console-copy').click();
    await expect(map.getByTestId('console-copy')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('1# "a" => "1"\n2# "b" => "2"\n');
    const dbl = await c.answer('ZSCORE z one');
    await expect(dbl).toContainText('(double) 1.5');
    await expect(await c.answer('GET nothing')).toContainText('(nil)');
    // RESP2: the same map is a flat array.
    await c.protocol(2);
    const flat = await c.answer('HGETALL m');
    await expect(flat.getByTestId('console-node-reply')).toHaveAttribute('data-type', 'array');
    await expect(await c.answer('ZSCORE z one')).toContainText('"1.5"');
    // A nested EVAL array and an error reply from the same script.
    const lua = await c.answer("EVAL \"return {1, {2, {'three'}}, redis.error_reply('MY bad')}\" 0");
    await expect(lua).toContainText('(integer) 1');
    await expect(lua).toContainText('"three"');
    await expect(lua).toContainText('(error) MY bad');

    // Raw mode prints as redis-cli --raw does: no quotes, no types.
    await page.getByTestId('console-raw').check();
    await expect(x.getByTestId('console-reply-raw')).toContainText('field');
    await expect(x.getByTestId('console-reply-raw')).not.toContainText('"field"');
    await page.getByTestId('console-raw').uncheck();

    await c.protocol(3);
    const shown = await c.answer('XRANGE s - + COUNT 2');
    await c.toggle(shown, 1, '2)').click();
    await shootBothThemes(page, 'docs/console.png', (path) => c.screenshot(path));
  });

  test('a secret parameter shows as (secret) wherever a reply holds it: CONFIG GET queued in MULTI, in the tree, Raw and Copy', async ({
    page,
    redis,
    admin,
  }) => {
    const secret = `Pw-e2e-exec-${redis.port}`;
    await admin.config('SET', 'masterauth', secret);
    const c = new ConsolePage(page);
    await c.openOn('console-secret', redis);
    await c.answer('MULTI');
    for (const line of ['CONFIG GET masterauth', 'CONFIG GET *']) {
      const queued = await c.answer(line);
      if ((await queued.getAttribute('data-status')) === 'held') await c.confirmHeld('CONFIG GET');
      await expect(queued).toHaveAttribute('data-status', 'done');
      await expect(queued).toContainText('QUEUED');
    }
    const exec = await c.answer('EXEC');
    await expect(exec).toHaveAttribute('data-status', 'done');
    await expect(exec).toContainText('"masterauth"');
    await expect(exec).toContainText('(secret)');
    await expect(exec).not.toContainText(secret);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await exec.getByTestId('console-copy').click();
    await expect(exec.getByTestId('console-copy')).toHaveText('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    // The whole reply (the tree draws only the lines in view): every secret masked, the rest as sent.
    expect(copied.split('(secret)').length - 1).toBeGreaterThanOrEqual(2);
    expect(copied).toContain('"maxmemory-policy"');
    expect(copied).not.toContain(secret);
    await page.getByTestId('console-raw').check();
    await expect(exec.getByTestId('console-reply-raw')).toContainText('(secret)');
    await expect(exec.getByTestId('console-reply-raw')).not.toContainText(secret);
    await page.getByTestId('console-raw').uncheck();
  });

  test('FLUSHALL is held until typed back, the data untouched until then', async ({ page, redis, admin }) => {
    const c = new ConsolePage(page);
    await c.openOn('console-held', redis);
    const keys = 5 + (redis.port % 7);
    for (let i = 0; i < keys; i++) await admin.set(`keep:${i}`, 'x');
    await expect(await c.answer('DBSIZE')).toContainText(`(integer) ${keys}`);
    await c.answer('SCAN 0 MATCH keep:* COUNT 4');

    const e = await c.answer('FLUSHALL');
    await expect(e).toHaveAttribute('data-status', 'held');
    await expect(c.held()).toContainText('FLUSHALL');
    // Nothing ran: the keys are all there.
    expect(await admin.dbsize()).toBe(keys);
    // A wrong word keeps the button off.
    await c.held().getByTestId('console-held-input').fill('FLUSHDB');
    await expect(c.held().getByTestId('console-held-run')).toBeDisabled();
    expect(await admin.dbsize()).toBe(keys);
    await c.held().getByTestId('console-held-input').fill('flushall');
    await expect(c.held().getByTestId('console-held-run')).toBeEnabled();
    await shootBothThemes(page, 'docs/console-held.png', (path) => c.screenshot(path));
    expect(await admin.dbsize()).toBe(keys);

    await c.confirmHeld('flushall');
    await expect(e).toHaveAttribute('data-status', 'done');
    await expect(e).toContainText('OK');
    expect(await admin.dbsize()).toBe(0);

    // Don't run leaves a held command unrun.
    await admin.set('still', 'here');
    const again = await c.answer('FLUSHDB');
    await expect(again).toHaveAttribute('data-status', 'held');
    await again.getByTestId('console-held-dismiss').click();
    await expect(again).toHaveAttribute('data-status', 'cancelled');
    expect(await admin.get('still')).toBe('here');
  });

  test('hostile values and key names render as text, never as markup', async ({ page, redis, admin }) => {
    const c = new ConsolePage(page);
    await c.openOn('console-hostile', redis);
    await admin.set(HOSTILE_KEY, HOSTILE_VALUE);
    await admin.set('plain', HOSTILE_VALUE);
    const imgs = await page.locator('img').count();

    const got = await c.answer('GET plain');
    await expect(got).toContainText(`"${HOSTILE_VALUE}"`);
    const keys = await c.answer('KEYS evil:*');
    // The bytes escaped as everywhere in Cacheboard: not UTF-8 as \xff, the override as \u202e.
    await expect(keys).toContainText('"evil:\\xff\\r\\n\\u202egpj"');
    // The same value typed in escaped form reads back.
    await expect(await c.answer('GET "evil:\\xff\\r\\n\\xe2\\x80\\xaegpj"')).toContainText(HOSTILE_VALUE);
    await expect(page.locator('img')).toHaveCount(imgs);
    await expect(page.locator('.cn-transcript img, .cn-transcript script')).toHaveCount(0);
  });

  test('a server whose ACL allows COMMAND LIST alone: names only, said once, and every command held', async ({ page, redis, admin }) => {
    // COMMAND with no subcommand is COMMAND INFO of every command: all of COMMAND goes but LIST.
    await admin.call('ACL', 'SETUSER', 'default', '-command', '+command|list');
    await admin.set('x', 'still-here');
    const c = new ConsolePage(page);
    await c.openOn('console-names', redis);
    await expect(page.getByTestId('console-catalog-note')).toHaveCount(1);
    await expect(page.getByTestId('console-catalog-note')).toContainText('names only');
    await c.type('hge');
    await expect(c.option('HGET')).toBeVisible();
    await expect(page.getByTestId('console-suggestions').getByTestId('console-docs')).toHaveCount(0);
    await c.input().press('Escape');
    // Nothing says which commands are safe: even a GET waits to be typed back.
    const e = await c.answer('GET x');
    await expect(e).toHaveAttribute('data-status', 'held');
    await c.confirmHeld('GET');
    await expect(e).toContainText('"still-here"');
  });

  test('a pasted script run while the call rate is spent waits its turn and runs whole, in order, each line once', async ({ page, redis, admin }) => {
    test.setTimeout(60_000);
    const c = new ConsolePage(page);
    await c.openOn('console-paste', redis);
    const n = 40;
    await c.input().fill(Array.from({ length: n }, (_, i) => `RPUSH console:paste ${i}`).join('\n'));
    // Spend this user's calls (50 a second, bursts of 200) from the page's own origin, as another
    // tab would: 250 at once, then one every 5 ms for 3 s while the script runs (Enter pressed
    // once the bucket is empty), so its lines meet an empty bucket.
    const limited = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
          let sent = 0;
          let refused = 0;
          const send = () => ws.send(JSON.stringify({ t: 'call', id: `spend-${sent++}`, name: 'health', input: {} }));
          ws.onopen = () => {
            for (let i = 0; i < 250; i++) send();
            const flood = setInterval(send, 5);
            setTimeout(() => {
              clearInterval(flood);
              setTimeout(() => {
                ws.close();
                resolve(refused);
              }, 500);
            }, 3000);
          };
          ws.onmessage = (e: MessageEvent<string>) => {
            const m = JSON.parse(e.data) as { t: string; ok?: boolean; error?: { code: string } };
            if (m.t !== 'result' || m.ok !== false || m.error?.code !== 'RATE_LIMITED') return;
            if (refused++ === 0)
              document.querySelector('[data-testid="console-input"]')?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
          };
          ws.onerror = () => reject(new Error('the socket failed'));
        }),
    );
    expect(limited).toBeGreaterThan(0);
    await expect.poll(() => admin.llen('console:paste'), { timeout: 30_000 }).toBe(n);
    await expect(c.entries().last()).toHaveAttribute('data-status', 'done', { timeout: 10_000 });
    expect(await admin.lrange('console:paste', 0, -1)).toEqual(Array.from({ length: n }, (_, i) => String(i)));
  });

  test("the embedded server's profile says writes are refused, and refuses one before Redis sees it", async ({ page }) => {
    const c = new ConsolePage(page);
    await c.open('Local (embedded)');
    await expect(page.getByTestId('console-read-only-note')).toContainText('commands that write are refused');
    await expect(await c.answer('DBSIZE')).toContainText('(integer)');
    const refused = await c.answer('SET console:e2e x');
    await expect(refused).toHaveAttribute('data-status', 'failed');
    await expect(refused.getByRole('alert')).toContainText('READ_ONLY');
    await expect(refused.getByRole('alert')).toContainText('read-only embedded server');
    await expect(await c.answer('EXISTS console:e2e')).toContainText('(integer) 0');
  });

  test('a blocking command shows Running… with its time and Cancel stops it', async ({ page, redis, admin }) => {
    const c = new ConsolePage(page);
    await c.openOn('console-block', redis);
    const e = await c.run('BLPOP nothing:here 0');
    await expect(e.getByTestId('console-running')).toBeVisible();
    await expect(e.getByTestId('console-elapsed')).not.toHaveText('0.00 s');
    const clients = async () =>
      String(await admin.call('CLIENT', 'LIST'))
        .split('\n')
        .filter((l) => l.includes('cmd=blpop')).length;
    await expect.poll(clients).toBe(1);
    await e.getByTestId('console-cancel').click();
    await expect(e).toHaveAttribute('data-status', 'cancelled');
    // The blocked connection is gone: a push now lands nowhere.
    await expect.poll(clients).toBe(0);
    await admin.rpush('nothing:here', 'x');
    expect(await admin.llen('nothing:here')).toBe(1);
    // The console still runs commands.
    await expect(await c.answer('PING')).toContainText('PONG');
  });
});

test.describe('Console page on a cluster', () => {
  let cluster: TestCluster;
  test.beforeEach(async () => {
    cluster = await startCluster();
  });
  test.afterEach(async () => {
    await cluster?.stop();
  });

  test('every master answers side by side; a cross-slot command is explained', async ({ page }) => {
    test.setTimeout(90_000);
    const [seed, ...others] = cluster.addresses as [string, ...string[]];
    const [host, port] = seed.split(':') as [string, string];
    const keys = 60 + (Number(port) % 40);
    const client = new Cluster([{ host, port: Number(port) }]);
    try {
      for (let i = 0; i < keys; i++) await client.set(`k:${i}`, 'v');
    } finally {
      client.disconnect();
    }
    const name = `console-cluster-${port}`;
    await new ConnectionsPage(page).open();
    await new ConnectionsPage(page).add({ name, topology: 'cluster', host, port, seeds: others.slice(0, 2).join(', ') });
    const c = new ConsolePage(page);
    await c.open(name);

    await c.target('Every master');
    const e = await c.answer('DBSIZE');
    const replies = e.getByTestId('console-node-reply');
    await expect(replies).toHaveCount(3);
    const counts = await replies.evaluateAll((els) => els.map((el) => Number(/\(integer\) (\d+)/.exec(el.textContent ?? '')?.[1])));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(keys);
    // The server tips DBSIZE response_policy:agg_sum: one total under the three counts.
    await expect(e.getByTestId('console-total')).toHaveText(`Total of the 3 nodes: (integer) ${keys}`);
    for (const m of cluster.masters) await expect(e.locator(`[data-address="127.0.0.1:${m.port}"]`)).toBeVisible();
    // Side by side: the columns share a top.
    const tops = await replies.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    // A verbatim reply (RESP3 INFO) reads as its lines, per node.
    const info = await c.answer('INFO keyspace');
    await expect(info.getByTestId('console-node-reply')).toHaveCount(3);
    await expect(info.getByTestId('console-node-reply').first()).toContainText(/# Keyspace\s+db0:keys=\d+/);

    // One node: its reply alone, under its address.
    const one = cluster.masters[1] as { port: number };
    await c.target(`127.0.0.1:${one.port}`);
    const mine = await c.answer('DBSIZE');
    await expect(mine.getByTestId('console-node-reply')).toHaveCount(1);
    await expect(mine.getByTestId('console-node-reply')).toHaveAttribute('data-address', `127.0.0.1:${one.port}`);
    const before = await e.locator(`[data-testid="console-node-reply"][data-address="127.0.0.1:${one.port}"]`).textContent();
    await expect(mine).toContainText(/\(integer\) \d+/.exec(before ?? '')?.[0] ?? 'a count');

    await c.target('Auto');
    const cross = await c.answer('MSET a 1 b 2');
    await expect(cross).toContainText('CROSSSLOT');
    await expect(cross.getByTestId('console-hint')).toBeVisible();
    // A keyed command goes to the master of its slot, whichever it is.
    await expect(await c.answer('GET k:7')).toContainText('"v"');
    await shootBothThemes(page, 'docs/console-cluster.png', (path) => c.screenshot(path));
  });
});

test.describe('Console page for an analyst', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  const server = useServeWithRoles();

  test('runs @read commands, is told only those run, and a write is refused in words', async ({ page, browser, redis, admin }) => {
    const serve = server();
    await admin.set('user:1', 'ana-can-read');
    const profile = `console-ana-${redis.port}`;
    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    await new AppShell(page).addProfile(serve.url, profile, redis);
    const context = await browser.newContext();
    try {
      const ana = await context.newPage();
      await new AppShell(ana).signIn(serve.url, ANALYST.name, ANALYST.password);
      const c = new ConsolePage(ana);
      await c.open(profile, serve.url);
      await expect(ana.getByTestId('console-analyst-note')).toContainText('@read');
      await expect(await c.answer('GET user:1')).toContainText('"ana-can-read"');
      const refused = await c.answer('SET user:1 changed');
      await expect(refused).toHaveAttribute('data-status', 'failed');
      await expect(refused.getByRole('alert')).toContainText('Analysts may run only @read commands');
      await expect(refused.getByRole('alert')).toContainText('FORBIDDEN');
      expect(await admin.get('user:1')).toBe('ana-can-read');
      // KEYS is @read but @dangerous: refused outright, never held for a confirmation the analyst could type back.
      await expect(ana.getByTestId('console-analyst-note')).toContainText('@dangerous');
      const keys = await c.answer('KEYS *');
      await expect(keys).toHaveAttribute('data-status', 'failed');
      await expect(keys.getByRole('alert')).toContainText('Analysts never run @dangerous commands');
    } finally {
      await context.close();
    }
  });
});
