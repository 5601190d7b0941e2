import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, startRedis, type RedisProcess } from '../../../testing/redis';
import type { ConfigNodeRef, NodeAccess } from './configNodes';
import { replyPairs } from './readConfig';
import { ownName, setOnNode } from './setConfig';

/** Valkey 8's CONFIG GET of both names of each: the new name and the old, with one value. */
const VALKEY = replyPairs(['primaryauth', 'pw-v', 'masterauth', 'pw-v', 'primaryuser', 'u', 'masteruser', 'u']);

describe('ownName', () => {
  it('picks the newest name a Valkey node lists, whichever name the row asked by', () => {
    expect(ownName('masterauth', VALKEY)).toEqual({ name: 'primaryauth', value: 'pw-v' });
    expect(ownName('PrimaryUser', VALKEY)).toEqual({ name: 'primaryuser', value: 'u' });
  });

  it('keeps the name asked where the node lists none of its names (the SET then says what Redis thinks)', () => {
    expect(ownName('primaryauth', new Map())).toEqual({ name: 'primaryauth' });
    expect(ownName('no-such-param', VALKEY)).toEqual({ name: 'no-such-param' });
  });
});

describe('setOnNode on real Redis 7.0 servers', () => {
  let servers: RedisProcess[];
  let clients: Map<string, Redis>;
  const at = (p: RedisProcess) => `${p.host}:${p.port}`;
  const access = (): NodeAccess => ({
    topology: 'standalone',
    list: async () => servers.map((s): ConfigNodeRef => ({ address: at(s), role: 'master', up: true })),
    connect: async (address) => clients.get(address) as Redis,
  });

  beforeAll(async () => {
    servers = await Promise.all([startRedis(), startRedis()]);
    clients = new Map(await Promise.all(servers.map(async (s) => [at(s), await adminClient(s)] as const)));
  }, 30_000);
  afterAll(async () => {
    await closeAdmins();
    await Promise.all(servers.map((s) => s.stop()));
  });

  it("maps each alias of the table to a name Redis 7.0's own CONFIG GET * lists", async () => {
    const listed = replyPairs(await clients.get(at(servers[0]!))!.call('CONFIG', 'GET', '*'));
    expect(ownName('primaryauth', listed).name).toBe('masterauth');
    expect(ownName('primaryuser', listed).name).toBe('masteruser');
    expect(ownName('slave-read-only', listed).name).toBe('replica-read-only');
    expect(ownName('list-max-ziplist-size', listed).name).toBe('list-max-listpack-size');
  });

  it("sets a row merged under Valkey's primaryauth as masterauth on every Redis node, each read back", async () => {
    const secret = 'Pw-primary-row-8e41';
    const nodes = await access().list();
    const sets = await Promise.all(nodes.map((n) => setOnNode(access(), n, 'primaryauth', secret)));
    for (const [i, s] of sets.entries()) {
      expect(s.result, nodes[i]!.address).toMatchObject({ ok: true });
      expect(s.detail).toContain('masterauth (asked as primaryauth)');
      expect(JSON.stringify(s)).not.toContain(secret);
      expect(await clients.get(nodes[i]!.address)!.config('GET', 'masterauth')).toEqual(['masterauth', secret]);
    }
  });

  it('sets primaryuser as masteruser on one node', async () => {
    const [node] = await access().list();
    const s = await setOnNode(access(), node!, 'primaryuser', 'repl-user-2');
    expect(s.result).toMatchObject({ ok: true });
    expect(await clients.get(node!.address)!.config('GET', 'masteruser')).toEqual(['masteruser', 'repl-user-2']);
  });

  it("reads the value before and after under the node's own name for an old name", async () => {
    const [node] = await access().list();
    const s = await setOnNode(access(), node!, 'slave-read-only', 'no');
    expect(s.result).toEqual({ address: node!.address, ok: true, before: 'yes', after: 'no' });
    expect(s.detail).toBe('replica-read-only (asked as slave-read-only): "yes" → "no"');
  });
});
