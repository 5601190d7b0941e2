import { afterAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { DEEP_TYPES } from './deepColumns';
import type { KeysReader } from './indexTargets';
import { KeyIndex } from './keyIndex';
import { listKeys, type ListQuery } from './listKeys';
import { FIELDS_EXPIRE, probeKeys } from './probeKeys';

const redis = useRedis();
afterAll(closeAdmins);

async function reader(): Promise<KeysReader> {
  const admin = await adminClient(redis());
  return { masters: async () => [admin], keyed: async () => admin };
}

const query = (q: Partial<ListQuery>): ListQuery => ({ match: Buffer.from('*'), noTtl: false, sort: 'name', order: 'asc', limit: 100, ...q });
const names = (keys: { key: { b64: string } }[]): string[] => keys.map((k) => Buffer.from(k.key.b64, 'base64').toString());

describe("the Keys list's no-TTL filter and hash-field expiration", () => {
  it('on a server without it (the Redis 7.0 here), judges a hash by its key TTL and sends no field command', async () => {
    const admin = await adminClient(redis());
    await admin.flushall();
    await admin.hset('h:none', 'a', '1');
    await admin.hset('h:ttl', 'a', '1');
    await admin.expire('h:ttl', 3_000);
    await admin.set('s:none', 'v');
    await admin.config('RESETSTAT');
    const probed = await probeKeys(
      await reader(),
      ['h:none', 'h:ttl', 's:none'].map((k) => Buffer.from(k)),
      { fieldTtls: true },
    );
    expect(probed.map((p) => p.ttlMs)).toEqual([-1, expect.any(Number), -1]);
    expect(probed[1]?.ttlMs).toBeGreaterThan(0);
    const listed = await listKeys(null, query({ noTtl: true }), await reader());
    expect(names(listed.keys).sort()).toEqual(['h:none', 's:none']);
    expect(await admin.info('commandstats')).not.toMatch(/cmdstat_(object|hrandfield|hpttl):/);
  });

  it("leaves a hash whose fields expire out of the deep index's no-TTL list, and shows and sorts it as the key TTL-less it is", async () => {
    const index = new KeyIndex(Buffer.from(':'), 1 << 30);
    const keys = ['a:fields', 'b:none', 'c:ttl'];
    for (const k of keys) index.add(Buffer.from(k));
    const ids = keys.map((k) => [...index.idsUnder(index.root)].find((id) => index.store?.name(id).toString() === k) as number);
    const deep = { type: new Uint8Array(keys.length), ttl: new Float64Array(keys.length), memory: new Float64Array(keys.length) };
    const rows: [string, number][] = [
      ['hash', FIELDS_EXPIRE],
      ['string', -1],
      ['string', 5_000],
    ];
    rows.forEach(([type, ttl], i) => {
      const id = ids[i] as number;
      deep.type[id] = DEEP_TYPES.indexOf(type as 'hash');
      deep.ttl[id] = ttl;
      deep.memory[id] = 10;
    });
    index.deep = deep;
    const r = await reader();
    expect(names((await listKeys(index, query({ sort: 'ttl', noTtl: true }), r)).keys)).toEqual(['b:none']);
    const all = (await listKeys(index, query({ sort: 'ttl' }), r)).keys;
    expect(names(all)).toEqual(['c:ttl', 'a:fields', 'b:none']);
    expect(all.map((k) => k.ttlMs)).toEqual([5_000, -1, -1]);
  });
});
