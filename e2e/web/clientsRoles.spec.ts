import { Redis } from 'ioredis';
import { AppShell } from '../pages/AppShell';
import { ClientsPage } from '../pages/ClientsPage';
import { ConnectionsPage } from '../pages/ConnectionsPage';
import { callFromPage } from '../pages/pageSocket';
import { expect, test, webOnly } from '../redisFixture';
import { ANALYST, OPS, useServeWithRoles } from '../rolesServe';

const REASON = 'Needs the ops role; you are signed in as analyst.';

test.describe('Clients page and roles', () => {
  webOnly('an analyst signs in; the desktop user is always ops');
  const server = useServeWithRoles();

  test('an analyst reads the clients, is offered no Kill or Pause and told why, and the server refuses them all the same', async ({ page, browser, redis }) => {
    test.setTimeout(60_000);
    const serve = server();
    await new AppShell(page).signIn(serve.url, OPS.name, OPS.password);
    await page.goto(`${serve.url}/#/connections`);
    const profile = `clients-roles-${redis.port}`;
    await new ConnectionsPage(page).add({ name: profile, host: redis.host, port: String(redis.port) });
    const bystander = new Redis({ host: redis.host, port: redis.port, connectionName: 'bystander', lazyConnect: true, retryStrategy: () => null });
    await bystander.connect();

    const context = await browser.newContext();
    try {
      const ana = await context.newPage();
      const shell = new AppShell(ana);
      await shell.signIn(serve.url, ANALYST.name, ANALYST.password);
      await expect(shell.navRole('clients')).toHaveCount(0);
      await ana.goto(`${serve.url}/#/clients`);
      await shell.selectProfile(profile);
      const clients = new ClientsPage(ana);
      await expect(clients.row('bystander')).toHaveCount(1);
      await expect(ana.getByTestId('clients-kill')).toHaveCount(0);
      await expect(ana.getByTestId('clients-pause')).toHaveCount(0);
      await expect(ana.getByTestId('clients-why-readonly')).toHaveText(REASON);

      const id = String(await bystander.client('ID'));
      const address = `${redis.host}:${redis.port}`;
      const { profiles } = (await callFromPage(ana, 'connections.list', {}).then((r) => (r.ok ? r.output : { profiles: [] }))) as {
        profiles: { id: string; name: string }[];
      };
      const profileId = profiles.find((p) => p.name === profile)?.id ?? '';
      for (const [name, input] of [
        ['clients.kill', { profileId, address, id, confirm: id }],
        ['clients.pause', { profileId, address, mode: 'WRITE', ms: 1000, confirm: 'PAUSE' }],
        ['clients.unpause', { profileId, address, confirm: 'UNPAUSE' }],
      ] as const) {
        const refused = await callFromPage(ana, name, input);
        expect(refused.ok ? 'ok' : refused.error.code, name).toBe('FORBIDDEN');
      }
      expect(await bystander.ping()).toBe('PONG');
    } finally {
      await context.close();
      bystander.disconnect();
    }
  });
});
