import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { hasFieldTtls } from './commandSupport';
import { anyFieldTtl, FIELD_TTLS_LUA, hashFieldsExpire } from './fieldTtls';

const redis = useRedis();
afterAll(closeAdmins);

/** HPTTL replies (-2 field gone, -1 no TTL, 0+ ms left) and whether they say "a field expires". */
const REPLIES: [number[], boolean][] = [
  [[], false],
  [[-1], false],
  [[-1, -2, -1], false],
  [[-1, 0], true],
  [[-2, 86_400_000, -1], true],
];

describe('whether a hash has fields that expire (the Redis 7.0 here has no hash-field expiration)', () => {
  it('has no hash-field expiration by COMMAND INFO, so every caller keeps to key TTLs here', async () => {
    expect(await hasFieldTtls(await adminClient(redis()))).toBe(false);
  });

  it('reads HPTTL replies the same way in TypeScript and in the Lua the bulk actions run', async () => {
    const admin = await adminClient(redis());
    for (const [reply, yes] of REPLIES) {
      expect(anyFieldTtl(reply)).toBe(yes);
      const lua = `${FIELD_TTLS_LUA}\nreturn any_ttl({${reply.join(',')}}) and 1 or 0`;
      expect(await admin.eval(lua, 0)).toBe(yes ? 1 : 0);
    }
    expect(anyFieldTtl(null)).toBe(false);
  });

  it('says no, without an error, for a key that is gone or no longer a hash', async () => {
    const admin = await adminClient(redis());
    await admin.set('fx:string', 'v');
    expect(await hashFieldsExpire(admin, Buffer.from('fx:string'))).toBe(false);
    expect(await hashFieldsExpire(admin, Buffer.from('fx:missing'))).toBe(false);
  });

  it('asks HPTTL of the fields HRANDFIELD drew (all of a small hash), which a server without it refuses', async () => {
    const admin = await adminClient(redis());
    await admin.hset('fx:hash', 'a', '1', 'b', '2');
    expect(await admin.object('ENCODING', 'fx:hash')).toBe('listpack');
    await expect(hashFieldsExpire(admin, Buffer.from('fx:hash'))).rejects.toThrow(/unknown command 'HPTTL'.*'fx:hash' 'FIELDS' '2'/);
    await expect(admin.eval(`${FIELD_TTLS_LUA}\nreturn fields_expire(KEYS[1]) and 1 or 0`, 1, 'fx:hash')).rejects.toThrow(/Unknown Redis command/);
  });
});
