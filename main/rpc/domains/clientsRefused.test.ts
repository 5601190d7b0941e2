import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { clientsRpc, type ClientsRpc } from './clientsRpcTestKit';

// Users that may list clients but not kill or pause them: `asks` may ask ACL DRYRUN, `blind` may not.
const redis = useRedis();
let rpc: ClientsRpc;
let victim: Redis;
const at = () => `127.0.0.1:${redis().port}`;

beforeAll(async () => {
  const admin = await adminClient(redis());
  await admin.call('ACL', 'SETUSER', 'asks', 'on', '>pw', '~*', '&*', '+@all', '-client|kill', '-client|pause');
  await admin.call('ACL', 'SETUSER', 'blind', 'on', '>pw', '~*', '&*', '+@all', '-client|kill', '-client|pause', '-acl');
  rpc = clientsRpc([
    { id: 'asks', source: 'config', spec: specFor(redis(), { username: 'asks', password: 'pw' }) },
    { id: 'blind', source: 'config', spec: specFor(redis(), { username: 'blind', password: 'pw' }) },
  ]);
  victim = new Redis({ port: redis().port, connectionName: 'victim' });
  await victim.ping();
});
afterAll(async () => {
  victim.disconnect();
  await rpc.close();
  await closeAdmins();
});

describe('Clients with CLIENT KILL and CLIENT PAUSE refused', () => {
  it('names both beforehand where ACL DRYRUN answers, with the clients still listed', async () => {
    const [node] = (await rpc.list('ops', 'asks')).nodes;
    expect(node?.restrictions).toBeUndefined();
    expect(node?.clients.some((c) => c.name === 'victim')).toBe(true);
    expect(node?.writeRestrictions?.map((r) => r.command)).toEqual(['CLIENT KILL', 'CLIENT PAUSE']);
  });

  it('a kill refused at run time is the one line, not the server error, and the list names it from then on', async () => {
    const before = (await rpc.list('ops', 'blind')).nodes[0];
    expect(before?.writeRestrictions).toBeUndefined();
    const id = before?.clients.find((c) => c.name === 'victim')?.id ?? '';
    await expect(rpc.as('ops').invoke('clients.kill', { profileId: 'blind', address: at(), id, confirm: id })).rejects.toMatchObject({
      code: 'NOPERM',
      message: 'CLIENT KILL is not available here: no client can be killed on this node from here.',
    });
    const after = (await rpc.list('ops', 'blind')).nodes[0];
    expect(after?.writeRestrictions?.map((r) => r.command)).toEqual(['CLIENT KILL']);
    expect(await victim.ping()).toBe('PONG');
  });
});
