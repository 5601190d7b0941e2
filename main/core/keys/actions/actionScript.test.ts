import { afterAll, describe, expect, it } from 'vitest';
import { KeySelection } from '../../../../app/schemas/keyActions';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { ActionPlan, type RunAction } from './actionPlan';
import { ACTION_SCRIPT } from './actionScript';

const redis = useRedis();
afterAll(closeAdmins);

const DELETE: RunAction = { op: 'delete' };

function plan(selection: Record<string, unknown>, fieldTtls: boolean): ActionPlan {
  return new ActionPlan(KeySelection.parse({ match: Buffer.from('*').toString('base64'), ...selection }), DELETE, true, fieldTtls);
}

/** The script's `check` of `key` under `p`: 1 the key fits the filters, 0 it does not. */
async function check(p: ActionPlan, key: string): Promise<unknown> {
  const admin = await adminClient(redis());
  return admin.eval(ACTION_SCRIPT, 1, key, ...p.scriptArgs('check', Buffer.from(key)));
}

async function seed(): Promise<void> {
  const admin = await adminClient(redis());
  await admin.flushall();
  await admin.set('s:none', 'v');
  await admin.set('s:ttl', 'v', 'EX', 3_000);
  await admin.rpush('l:none', 'a');
  await admin.hset('h:none', 'a', '1');
  await admin.hset('h:ttl', 'a', '1');
  await admin.expire('h:ttl', 3_000);
}

describe("the bulk actions' TTL filters and hash-field expiration (the Redis 7.0 here has none)", () => {
  it("passes whether the server has hash-field expiration as the script's last argument", () => {
    expect(plan({ ttl: 'none' }, true).scriptArgs('check', Buffer.from('k')).at(-1)).toBe('1');
    expect(plan({ ttl: 'none' }, false).scriptArgs('check', Buffer.from('k')).at(-1)).toBe('0');
  });

  it('without it, judges every key by its key TTL alone, hashes included', async () => {
    await seed();
    const none = plan({ ttl: 'none' }, false);
    expect(await Promise.all(['s:none', 's:ttl', 'l:none', 'h:none', 'h:ttl'].map((k) => check(none, k)))).toEqual([1, 0, 1, 1, 0]);
  });

  it('with it, checks the fields of a hash only under "no TTL" and only when the key has no TTL of its own', async () => {
    await seed();
    const none = plan({ ttl: 'none' }, true);
    // Not a hash, or a hash with a key TTL: decided before any field command.
    expect(await Promise.all(['s:none', 's:ttl', 'l:none', 'h:ttl'].map((k) => check(none, k)))).toEqual([1, 0, 1, 0]);
    // A hash without a key TTL reaches the field check, whose HPTTL this server lacks (the flag
    // comes from COMMAND INFO, so it is never on here).
    await expect(check(none, 'h:none')).rejects.toThrow(/Unknown Redis command/);
    // TTL below / above compare the key's own TTL: no field command.
    expect(await check(plan({ ttl: 'below', ttlSeconds: 60 }, true), 'h:none')).toBe(0);
    expect(await check(plan({ ttl: 'above', ttlSeconds: 60 }, true), 'h:none')).toBe(0);
    expect(await check(plan({ ttl: 'above', ttlSeconds: 60 }, true), 'h:ttl')).toBe(1);
    expect(await check(plan({ ttl: 'any' }, true), 'h:none')).toBe(1);
  });
});
