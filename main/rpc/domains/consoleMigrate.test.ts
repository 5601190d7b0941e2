import { describe, expect, it } from 'vitest';
import { adminClient, eventually, useRedis } from '../../../testing/redis';
import { useConsoleOnServer } from './consoleRpcTestKit';

const TARGET_PW = 'migrate-Target-5521';
const TARGET_USER = 'mover';
const USER_PW = 'migrate-User-8830';

const { admin, redis, rpc } = useConsoleOnServer();
const target = useRedis({ password: TARGET_PW });

/** Every line MONITOR shows on the console's server while `run` runs (until a marker after it comes through). */
async function monitored(run: () => Promise<unknown>): Promise<string[]> {
  const watcher = await adminClient(redis());
  const monitor = await watcher.monitor();
  const lines: string[] = [];
  monitor.on('monitor', (_time: string, args: string[]) => lines.push(args.join(' ')));
  try {
    await run();
    const marker = `marker-${Date.now()}`;
    await admin().echo(marker);
    expect(await eventually(() => lines.some((l) => l.includes(marker)), 10_000)).toBe(true);
    return lines;
  } finally {
    monitor.disconnect();
  }
}

describe('MIGRATE with a password, run from the console', () => {
  it('names its keys in the audit log without sending the password anywhere MONITOR shows it', async () => {
    const to = await adminClient(target(), { password: TARGET_PW });
    await to.call('ACL', 'SETUSER', TARGET_USER, 'on', `>${USER_PW}`, '~*', '+@all');
    await admin().mset('k:a', '1', 'k:b', '2', 'k:c', '3');
    const { host, port } = target();
    const lines = await monitored(async () => {
      await rpc().confirmed('ops', { line: `MIGRATE ${host} ${port} "" 0 5000 AUTH ${TARGET_PW} KEYS k:a k:b` });
      await rpc().confirmed('ops', { line: `MIGRATE ${host} ${port} k:c 0 5000 REPLACE AUTH2 ${TARGET_USER} ${USER_PW}` });
    });
    expect(await to.mget('k:a', 'k:b', 'k:c')).toEqual(['1', '2', '3']);
    expect(lines.some((l) => l.startsWith('MIGRATE') || l.startsWith('migrate'))).toBe(true);
    for (const l of lines) {
      expect(l).not.toContain(TARGET_PW);
      expect(l).not.toContain(USER_PW);
    }
    const details = rpc()
      .audit()
      .filter((e) => e.action === 'console' && e.detail?.startsWith('MIGRATE') === true)
      .map((e) => e.detail);
    expect(details).toEqual(expect.arrayContaining(['MIGRATE "k:a" "k:b"', 'MIGRATE "k:c"']));
    expect(rpc().auditBytes().includes(TARGET_PW)).toBe(false);
  });
});
