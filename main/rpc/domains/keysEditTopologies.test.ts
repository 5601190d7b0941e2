import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostPort } from '../../../app/hostPort';
import type { AppError } from '../../../app/errors';
import { useCluster } from '../../../testing/cluster';
import { clusterSpec, sentinelSpec } from '../../../testing/profiles';
import { useSentinel } from '../../../testing/sentinel';
import { b64, openKey } from '../../core/keys/edit/editTestKit';
import { keySlot } from '../../core/resp/slot';
import { keysEditRpc, type KeysEditRpc } from './keysEditRpcTestKit';

const cluster = useCluster();
const sentinel = useSentinel();
let rpc: KeysEditRpc;
/** Second clients, writing from the side: the whole cluster, and the sentinel set's master. */
let otherCluster: Cluster;
let otherMaster: Redis;

const at = (address: string) => {
  const hp = parseHostPort(address, 6379);
  if ('error' in hp) throw new Error(hp.error);
  return hp;
};

beforeAll(async () => {
  const shards = clusterSpec(cluster().addresses);
  rpc = keysEditRpc([
    { id: 'shards', source: 'config', spec: shards },
    { id: 'ha', source: 'config', spec: sentinelSpec(sentinel(), { db: 2 }) },
  ]);
  otherCluster = new Cluster([{ host: shards.host, port: shards.port }]);
  const master = at(await sentinel().currentMaster());
  otherMaster = new Redis({ ...master, db: 2 });
});
afterAll(async () => {
  await rpc.close();
  otherCluster.disconnect();
  otherMaster.disconnect();
});

const refused = (p: Promise<unknown>): Promise<AppError> =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: AppError) => e,
  );

/** The master holding `name` (the others answer MOVED). */
async function owner(name: string): Promise<string> {
  for (const node of otherCluster.nodes('master')) {
    if ((await node.exists(name).catch(() => 0)) === 1) return `${node.options.host ?? ''}:${node.options.port ?? 0}`;
  }
  throw new Error(`no master holds ${name}`);
}

describe('keys.edit on a cluster', () => {
  it('edits keys on whichever master serves their slot, and refuses a stale view', async () => {
    // Two names in different slots: each edit routes by its key, to the master serving it.
    const names = ['edit:alpha', 'edit:delta'];
    expect(keySlot(Buffer.from(names[0] ?? ''))).not.toBe(keySlot(Buffer.from(names[1] ?? '')));
    for (const name of names) {
      await rpc.edit('ops', {
        profileId: 'shards',
        key: b64(name),
        edit: { op: 'create', type: 'hash', field: b64('f'), value: b64('seen'), ttlSeconds: 600 },
      });
      expect(await otherCluster.hget(name, 'f')).toBe('seen');
      expect(await otherCluster.ttl(name)).toBeGreaterThan(500);
    }
    expect(new Set(await Promise.all(names.map(owner))).size).toBe(2);
    const seen = await openKey(otherCluster, 'edit:alpha');
    // The digest script ran on the master serving the key's slot.
    expect(seen.digest).toMatch(/^[0-9a-f]{40}$/);
    await otherCluster.hset('edit:alpha', 'f', 'theirs');
    const e = await refused(
      rpc.edit('ops', {
        profileId: 'shards',
        key: b64('edit:alpha'),
        edit: { op: 'hash.set', field: b64('f'), value: b64('mine'), expectValue: b64('seen'), seen },
      }),
    );
    expect(e.code).toBe('CONFLICT');
    expect(await otherCluster.hget('edit:alpha', 'f')).toBe('theirs');
    const ok = await rpc.edit('ops', {
      profileId: 'shards',
      key: b64('edit:delta'),
      edit: { op: 'hash.set', field: b64('f'), value: b64('mine'), expectValue: b64('seen'), seen: await openKey(otherCluster, 'edit:delta') },
    });
    expect(ok.meta).toMatchObject({ exists: true, type: 'hash', length: 1 });
    expect(await otherCluster.hget('edit:delta', 'f')).toBe('mine');
  });

  it('renames within a hash tag; across slots is a VALIDATION error on edit.to that explains CROSSSLOT and hash tags', async () => {
    const from = Buffer.concat([Buffer.from('user:{42}:'), Buffer.from([0xff, 0x0d, 0x0a])]);
    await otherCluster.set(from, 'v');
    const moved = await rpc.edit('ops', {
      profileId: 'shards',
      key: b64(from),
      edit: { op: 'rename', to: b64('user:{42}:renamed'), seen: await openKey(otherCluster, from) },
    });
    expect(moved.meta).toMatchObject({ exists: true, type: 'string' });
    expect(await otherCluster.get('user:{42}:renamed')).toBe('v');
    const e = await refused(
      rpc.edit('ops', {
        profileId: 'shards',
        key: b64('user:{42}:renamed'),
        edit: { op: 'rename', to: b64('user:{43}:renamed'), seen: await openKey(otherCluster, 'user:{42}:renamed') },
      }),
    );
    expect(e).toMatchObject({ code: 'VALIDATION', field: 'edit.to' });
    expect(e.message).toMatch(/CROSSSLOT/);
    expect(e.message).toMatch(/hash tag/);
    expect(await otherCluster.get('user:{42}:renamed')).toBe('v');
    await rpc.edit('ops', {
      profileId: 'shards',
      key: b64('user:{42}:renamed'),
      edit: { op: 'delete', seen: await openKey(otherCluster, 'user:{42}:renamed') },
    });
    expect(await otherCluster.exists('user:{42}:renamed')).toBe(0);
  });
});

describe('keys.edit on a sentinel set', () => {
  it("edits the master the sentinels name, in the profile's DB, and refuses a stale view", async () => {
    await otherMaster.rpush('queue', 'a', 'b', 'c');
    await rpc.edit('ops', {
      profileId: 'ha',
      key: b64('queue'),
      edit: { op: 'list.remove', index: 1, expectValue: b64('b'), seen: await openKey(otherMaster, 'queue') },
    });
    expect(await otherMaster.lrange('queue', 0, -1)).toEqual(['a', 'c']);
    const seen = await openKey(otherMaster, 'queue');
    await otherMaster.lpush('queue', 'z');
    const e = await refused(
      rpc.edit('ops', { profileId: 'ha', key: b64('queue'), edit: { op: 'list.set', index: 1, value: b64('C'), expectValue: b64('c'), seen } }),
    );
    expect(e.code).toBe('CONFLICT');
    expect(await otherMaster.lrange('queue', 0, -1)).toEqual(['z', 'a', 'c']);
    expect(rpc.audit().at(-1)).toMatchObject({ action: 'keys.list.set', target: 'profile ha db 2', outcome: 'failed' });
  });
});
