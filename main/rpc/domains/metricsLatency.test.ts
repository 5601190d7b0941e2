import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../app/define';
import { RpcClient } from '../../../app/rpcClient';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { createRuntime, type Runtime } from '../../runtime';
import { createMemoryWirePair } from '../wireTestKit';

const redis = useRedis();
const dir = mkdtempSync(join(tmpdir(), 'cb-latency-rpc-'));
let runtime: Runtime;

beforeAll(async () => {
  // "open" as a hosted build defines its profiles, "locked" marked read-only: the same server.
  const configFile = join(dir, 'cacheboard.json');
  const server = { host: redis().host, port: redis().port };
  writeFileSync(
    configFile,
    JSON.stringify({
      profiles: [
        { id: 'open', name: 'open', ...server },
        { id: 'locked', name: 'locked', ...server, readOnly: true },
      ],
    }),
  );
  runtime = await createRuntime({ dataDir: join(dir, 'data'), secretBox: noSecretBox('tests'), configFile });
  await (await adminClient(redis())).config('SET', 'latency-monitor-threshold', '0');
});
afterAll(async () => {
  await runtime.close();
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});

function clientAs(role: Role): RpcClient {
  const { server, client: end } = createMemoryWirePair();
  runtime.attach(server, { role, user: role });
  const client = new RpcClient((m) => end.send(m));
  end.onMessage((m) => client.receive(m));
  return client;
}

async function threshold(): Promise<string | undefined> {
  const [, v] = (await (await adminClient(redis())).config('GET', 'latency-monitor-threshold')) as string[];
  return v;
}

describe('metrics.latencyMonitor and roles', () => {
  it('refuses an analyst the turn-on; the setting stays off', async () => {
    const analyst = clientAs('analyst');
    await expect(analyst.invoke('metrics.latencyMonitor', { profileId: 'open' })).resolves.toEqual({ thresholdMs: 0 });
    await expect(analyst.invoke('metrics.latencyMonitorOn', { profileId: 'open', minutes: 10 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(analyst.invoke('metrics.latencyMonitorOff', { profileId: 'open' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await threshold()).toBe('0');
  });

  it('lets ops turn it on for a while and off again', async () => {
    const ops = clientAs('ops');
    const on = await ops.invoke('metrics.latencyMonitorOn', { profileId: 'open', minutes: 30 });
    expect(on).toMatchObject({ setMs: 10, previousMs: 0 });
    expect(on.until - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(await threshold()).toBe('10');
    await expect(clientAs('analyst').invoke('metrics.latencyMonitor', { profileId: 'open' })).resolves.toMatchObject({ thresholdMs: 10, timed: { setMs: 10 } });
    await expect(ops.invoke('metrics.latencyMonitorOff', { profileId: 'open' })).resolves.toMatchObject({ restored: true });
    expect(await threshold()).toBe('0');
    // Both writes are in the audit log, each as one row with its outcome.
    const { entries } = await ops.invoke('audit.list', {});
    expect(entries.find((e) => e.action === 'metrics.latencyMonitorOn')).toMatchObject({
      outcome: 'ok',
      user: 'ops',
      detail: 'latency-monitor-threshold 10 for 30 min; was 0',
    });
    expect(entries.find((e) => e.action === 'metrics.latencyMonitorOff')).toMatchObject({ outcome: 'ok', detail: expect.stringContaining('put back to 0') });
  });

  it('refuses ops on a read-only profile before any CONFIG SET', async () => {
    await expect(clientAs('ops').invoke('metrics.latencyMonitorOn', { profileId: 'locked', minutes: 10 })).rejects.toMatchObject({
      code: 'READ_ONLY',
      message: expect.stringContaining('readOnly'),
    });
    expect(await threshold()).toBe('0');
  });

  it('refuses a duration other than 10, 30 or 60 minutes', async () => {
    await expect(clientAs('ops').invoke('metrics.latencyMonitorOn', { profileId: 'open', minutes: 5 as 10 })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
