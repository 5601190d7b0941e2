import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReplicaSet, type ReplicaSet } from '../../../../testing/replication';
import { eventually } from '../../../../testing/redis';
import { b64, editOn, refusal } from './editTestKit';

let set: ReplicaSet;
let master: Redis;
let replica: Redis;

beforeAll(async () => {
  set = await startReplicaSet({ replicas: 1 });
  const [r] = set.replicas;
  if (r === undefined) throw new Error('no replica');
  master = new Redis({ host: set.master.host, port: set.master.port });
  replica = new Redis({ host: r.host, port: r.port });
});
afterAll(async () => {
  master.disconnect();
  replica.disconnect();
  await set.stop();
});

it("a profile aimed at a replica gets READ_ONLY, saying to edit on the master; the replica's data is untouched", async () => {
  await master.set('k', 'v');
  expect(await eventually(async () => (await replica.get('k')) === 'v')).toBe(true);
  const e = await refusal(editOn(replica)('k', { op: 'string.append', value: b64('!') }));
  expect(e.code).toBe('READ_ONLY');
  expect(e.message).toMatch(/read-only replica.*master/);
  expect(await replica.get('k')).toBe('v');
  expect(await master.get('k')).toBe('v');
});
