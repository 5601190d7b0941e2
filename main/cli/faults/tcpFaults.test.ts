import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../testing/redis';
import { writeUsersCsv } from '../../core/bulk/job/loadTestKit';
import { useLiveServer } from '../liveServerTestKit';
import { expectNothingLeft, spawnLoad, stagedKeys } from './faultTestKit';
import { tcpProxy, type TcpProxy } from './tcpProxy';

/*
 * Fault cases: the network between the loader and the server breaks mid-stream, through
 * a TCP proxy (tcpProxy.ts): every connection reset (RST), or every connection stalled
 * with no RST and no FIN. New connections still pass, as after a blip.
 */
const { redis, dir } = useLiveServer('cb-fault-tcp-');
let csv: string;
let proxy: TcpProxy | undefined;
beforeAll(() => {
  csv = writeUsersCsv(dir, 'users.csv', 300_000);
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

// Real processes on a shared machine: each case gets a minute.
describe("the loader's connections broken by the network", { timeout: 60_000 }, () => {
  it('reset mid-stream: the load fails as "outcome unknown", discards staging and restores save itself', async () => {
    proxy = await tcpProxy(redis());
    const load = spawnLoad(redis(), csv, { dir, url: proxy.url });
    expect(await eventually(async () => (await stagedKeys(redis())) >= 30_000, 60_000, 10)).toBe(true);
    proxy.cut();
    expect(await load.exited).toBe(1);
    expect(JSON.parse(load.out())).toMatchObject({ outcome: 'failed', swapped: false });
    await expectNothingLeft(redis(), load.dataDir, { kind: 'old' });
  });

  it('stalled mid-stream (no RST): SIGTERM cleans up over fresh connections, nothing left', async () => {
    proxy = await tcpProxy(redis());
    const load = spawnLoad(redis(), csv, { dir, url: proxy.url });
    expect(await eventually(async () => (await stagedKeys(redis())) >= 30_000, 60_000, 10)).toBe(true);
    proxy.stall();
    await new Promise((r) => setTimeout(r, 300));
    load.child.kill('SIGTERM');
    // The control connection hangs: the cleanup gives it CLEANUP_TIMEOUT_MS (10 s), then uses a fresh one.
    expect(await load.exited).toBe(143);
    expect(JSON.parse(load.out())).toMatchObject({ outcome: 'cancelled', swapped: false });
    proxy.cut();
    await expectNothingLeft(redis(), load.dataDir, { kind: 'old' });
  });
});
