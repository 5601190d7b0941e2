import { execSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRows } from '../../../app/clientColumns';
import { openIdleClients, type IdleClients } from '../../../testing/rawClients';
import { specFor } from '../../../testing/profiles';
import { useRedis } from '../../../testing/redis';
import { clientsRpc, type ClientsRpc } from './clientsRpcTestKit';

const MANY = 10_000;
// Each idle client costs a file descriptor here and one in the server.
const room = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
const redis = useRedis({ args: ['--maxclients', String(MANY + 100)] });
let rpc: ClientsRpc;
let idle: IdleClients | undefined;

beforeAll(async () => {
  rpc = clientsRpc([{ id: 'many', source: 'config', spec: specFor(redis()) }]);
  if (room >= MANY + 500) idle = await openIdleClients(redis(), MANY);
}, 60_000);
afterAll(async () => {
  await idle?.close();
  await rpc.close();
});

describe('10,000 clients', () => {
  it.skipIf(room < MANY + 500)(`lists every one of them in one answer, with totals over all (ulimit -n is ${room})`, async () => {
    const started = performance.now();
    const wire = await rpc.as('analyst').invoke('clients.list', { profileId: 'many' });
    const ms = performance.now() - started;
    const bytes = JSON.stringify(wire).length;
    const node = wire.nodes[0] === undefined ? undefined : { ...wire.nodes[0], clients: clientRows(wire.nodes[0].clients) };
    expect(node?.error).toBeUndefined();
    expect(node?.clients.length).toBeGreaterThanOrEqual(MANY);
    expect(node?.notShown).toBe(0);
    expect(node?.totals.clients).toBe(node?.clients.length);
    // The idle sockets never named themselves nor ran a command.
    expect(node?.totals.byName[0]).toEqual({ name: '', count: expect.any(Number) });
    expect(node?.totals.byName[0]?.count).toBeGreaterThanOrEqual(MANY);
    expect(node?.clients.filter((c) => c.cmd === 'NULL').length).toBeGreaterThanOrEqual(MANY);
    console.log(`clients.list of ${node?.clients.length} clients: ${ms.toFixed(0)} ms, ${(bytes / 1e6).toFixed(2)} MB of JSON`);
    expect(ms).toBeLessThan(5_000);
  });
});
