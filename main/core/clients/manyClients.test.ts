import { execSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRows } from '../../../app/clientColumns';
import { DEFAULT_IDLE_SECONDS } from '../../../app/schemas/clients';
import { ProfileId } from '../../../app/schemas/common';
import { openIdleClients, type IdleClients } from '../../../testing/rawClients';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { useRedis } from '../../../testing/redis';
import { MetricsHub } from '../metrics';
import { Pool } from '../pool/pool';
import { profileClients } from './profileClients';

const MANY = 10_000;
// Each idle client costs a file descriptor here and one in the server.
const room = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
const redis = useRedis({ args: ['--maxclients', String(MANY + 100)] });
let pool: Pool;
let metrics: MetricsHub;
let idle: IdleClients | undefined;

beforeAll(async () => {
  pool = new Pool(profileRegistry({ many: specFor(redis()) }));
  metrics = new MetricsHub({ pool });
  if (room >= MANY + 500) idle = await openIdleClients(redis(), MANY);
}, 60_000);
afterAll(async () => {
  await idle?.close();
  await metrics.shutdown();
  await pool.shutdown();
});

describe('10,000 clients', () => {
  it.skipIf(room < MANY + 500)(`lists every one of them in one answer, with totals over all (ulimit -n is ${room})`, async () => {
    const started = performance.now();
    const list = await profileClients(pool, metrics).list(ProfileId.parse('many'), 'many', DEFAULT_IDLE_SECONDS);
    // The answer as the wire carries it: what a page waits for is the JSON too.
    const bytes = JSON.stringify(list).length;
    const ms = performance.now() - started;
    const node = list.nodes[0] === undefined ? undefined : { ...list.nodes[0], clients: clientRows(list.nodes[0].clients) };
    expect(node?.error).toBeUndefined();
    expect(node?.clients.length).toBeGreaterThanOrEqual(MANY);
    expect(node?.notShown).toBe(0);
    expect(node?.totals.clients).toBe(node?.clients.length);
    // The idle sockets never named themselves nor ran a command.
    expect(node?.totals.byName[0]).toEqual({ name: '', count: expect.any(Number) });
    expect(node?.totals.byName[0]?.count).toBeGreaterThanOrEqual(MANY);
    expect(node?.clients.filter((c) => c.cmd === 'NULL').length).toBeGreaterThanOrEqual(MANY);
    console.log(`clients list of ${node?.clients.length} clients: ${ms.toFixed(0)} ms, ${(bytes / 1e6).toFixed(2)} MB of JSON`);
    expect(ms).toBeLessThan(5_000);
  });
});
