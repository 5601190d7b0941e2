import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { MODULE_DUMP_MAX_BYTES } from './keyMeta';
import { firstView } from './firstView';
import { keyTypeOf } from './keyType';
import { clientOf, type ValueClient } from './valueClient';

/**
 * A key whose TYPE the viewer does not know: Redis 8's `vectorset`, or a module's type name
 * (RedisBloom's `MBbloom--`). Redis 7.0 here has neither, and no module can be loaded, so the
 * server's real key is used with TYPE's reply replaced by such a name: every other command
 * (OBJECT ENCODING, MEMORY USAGE, DUMP, PTTL) is the real server's answer for that key.
 */
function namingType(client: ValueClient, key: Buffer, type: string): ValueClient {
  return {
    send: (command, ...args) =>
      command === 'TYPE' && Buffer.isBuffer(args[0]) && args[0].equals(key) ? Promise.resolve(Buffer.from(type)) : client.send(command, ...args),
    fieldTtls: () => client.fieldTtls(),
  };
}

const redis = useRedis();
let admin: Redis;
beforeAll(async () => {
  admin = await adminClient(redis());
});
afterAll(closeAdmins);

describe('a key of a type the viewer does not know', () => {
  it('reads every name but the native six and none as another type, keeping the name', () => {
    expect(keyTypeOf('vectorset')).toEqual({ type: 'other', moduleType: 'vectorset' });
    expect(keyTypeOf('MBbloom--')).toEqual({ type: 'other', moduleType: 'MBbloom--' });
    expect(keyTypeOf('hash')).toEqual({ type: 'hash', moduleType: null });
    expect(keyTypeOf('none')).toEqual({ type: null, moduleType: null });
  });

  it('opens with its type, encoding, memory and DUMP size, and no page, never an error', async () => {
    const key = Buffer.from('vec:small');
    await admin.hset(key, { a: '1', b: '2' });
    const view = await firstView(namingType(clientOf(admin), key, 'vectorset'), key);
    expect(view.page).toBeNull();
    expect(view.meta).toMatchObject({ exists: true, type: 'other', moduleType: 'vectorset', length: null, digest: null });
    expect(view.meta.encoding).toBe(await admin.object('ENCODING', key));
    expect(view.meta.memory).toBe(await admin.memory('USAGE', key, 'SAMPLES', 5));
    expect(view.meta.dumpBytes).toBe((await admin.dumpBuffer(key))?.length);
  });

  it('past the DUMP limit says its memory and leaves the DUMP size unknown rather than read it whole', async () => {
    const key = Buffer.from('vec:big');
    await admin.set(key, Buffer.alloc(MODULE_DUMP_MAX_BYTES + 1024, 7));
    const view = await firstView(namingType(clientOf(admin), key, 'MBbloom--'), key);
    expect(view.meta).toMatchObject({ type: 'other', moduleType: 'MBbloom--', dumpBytes: null });
    expect(view.meta.memory).toBeGreaterThan(MODULE_DUMP_MAX_BYTES);
  });
});
