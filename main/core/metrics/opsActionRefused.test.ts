import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { renamedAway } from '../../../testing/restricted';
import { Pool } from '../pool/pool';
import { MetricsHub } from './metricsHub';

// BGSAVE and BGREWRITEAOF renamed away (a managed service), and an ACL user refused BGSAVE who may not ask ACL DRYRUN.
const renamed = useRedis(renamedAway());
const plain = useRedis();
let pool: Pool;
let hub: MetricsHub;
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

beforeAll(async () => {
  const admin = await adminClient(plain());
  await admin.call('ACL', 'SETUSER', 'nosave', 'on', '>pw', '~*', '&*', '+@all', '-bgsave', '-acl');
  pool = new Pool({
    ...profileRegistry({ r: specFor(renamed()), u: specFor(plain(), { username: 'nosave', password: 'pw' }) }),
  });
  hub = new MetricsHub({ pool });
});
afterAll(async () => {
  await hub.shutdown();
  await pool.shutdown();
  await closeAdmins();
});

describe('BGSAVE and BGREWRITEAOF refused', () => {
  it('renamed away: both are named beforehand, and running one answers its line instead of an error', async () => {
    const lines = await hub.actionRestrictions('r', undefined);
    expect(lines.map((l) => l.command).sort()).toEqual(['BGREWRITEAOF', 'BGSAVE']);
    expect(lines[0]?.effect).toMatch(/can be started/);
    await expect(hub.runAction('r', addr(renamed()), 'bgsave')).resolves.toEqual({
      action: 'bgsave',
      address: addr(renamed()),
      refused: { command: 'BGSAVE', effect: expect.stringContaining('RDB snapshot') },
    });
    expect(hub.actions('r')).toEqual([]);
  });

  it('an ACL refusal met at run time is the line, and is known beforehand from then on', async () => {
    // The user may not ask ACL DRYRUN and BGSAVE exists: nothing says beforehand that it is refused.
    expect(await hub.actionRestrictions('u', undefined)).toEqual([]);
    const r = await hub.runAction('u', addr(plain()), 'bgsave');
    expect(r).toMatchObject({ refused: { command: 'BGSAVE' } });
    expect((await hub.actionRestrictions('u', undefined)).map((l) => l.command)).toEqual(['BGSAVE']);
  });
});
