import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../../testing/cli';
import { adminClient, eventually } from '../../testing/redis';
import { writeUsersCsv } from '../core/bulk/job/loadTestKit';
import { useLiveServer } from './liveServerTestKit';

const { redis, dir } = useLiveServer('cb-cli-signal-');
let csv: string;
beforeAll(() => {
  csv = writeUsersCsv(dir, 'users.csv', 300_000);
});

/**
 * `cacheboard load` in swap mode, stopped by `signal` while it writes into the staging DB.
 * CLIENT PAUSE WRITE holds the load mid-way (its pipe waits, nothing fails) so the signal
 * lands while keys are half-staged however fast this machine is; the pause ends right after.
 */
async function loadStoppedBy(signal: NodeJS.Signals, again?: NodeJS.Signals) {
  const dataDir = mkdtempSync(join(dir, 'data-'));
  const admin = await adminClient(redis());
  const staging = await adminClient(redis(), { db: 15 });
  const child = spawn(process.execPath, cliArgs('load', csv, '--url', `${redis().url}/0`, '--key', 'user:{id}', '--value', 'value', '--json'), {
    env: { ...process.env, CACHEBOARD_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  try {
    // More than the staging marker (stagingMarker.ts): data keys are being written.
    expect(await eventually(async () => (await staging.dbsize()) > 1, 30_000)).toBe(true);
    await admin.client('PAUSE', '10000', 'WRITE');
    const mid = {
      staged: await staging.dbsize(),
      save: ((await admin.config('GET', 'save')) as string[])[1],
      journal: readdirSync(join(dataDir, 'journal')),
    };
    child.kill(signal);
    await new Promise((r) => setTimeout(r, 300));
    // A second signal while the cleanup waits on the paused server: no waiting for it.
    if (again !== undefined) child.kill(again);
    const code = again === undefined ? (await admin.client('UNPAUSE'), await exited) : await exited;
    return { code, out, err, mid, dataDir };
  } finally {
    await admin.client('UNPAUSE');
    child.kill('SIGKILL');
  }
}

describe('cacheboard load stopped by a signal', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s mid-load cleans up as Ctrl-C does and exits %i', async (signal, exitCode) => {
    const r = await loadStoppedBy(signal);
    // Caught mid-load: keys half-staged, automatic saves off and journaled.
    expect(r.mid.staged).toBeGreaterThan(0);
    expect(r.mid.staged).toBeLessThan(300_000);
    expect(r.mid.save).toBe('');
    // The save journal, notify-keyspace-events' (liveWrites.ts) and the staging DB's journal (stagingJournal.ts).
    expect(r.mid.journal.map((n) => n.split('-')[0]).sort()).toEqual(['notify', 'save', 'staging']);

    expect(r.code).toBe(exitCode);
    expect(JSON.parse(r.out)).toMatchObject({ outcome: 'cancelled', swapped: false, mode: 'swap' });
    const admin = await adminClient(redis());
    expect(((await admin.config('GET', 'save')) as string[])[1]).toBe('900 1');
    expect(await admin.get('live')).toBe('before');
    expect(await admin.dbsize()).toBe(1);
    await admin.select(15);
    expect(await admin.dbsize()).toBe(0);
    expect(readdirSync(join(r.dataDir, 'journal'))).toEqual([]);
    expect(existsSync(join(r.dataDir, 'audit.log'))).toBe(true);
  });

  it('a second SIGTERM while the cleanup waits on the server leaves at once with 143, saying so', async () => {
    const r = await loadStoppedBy('SIGTERM', 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.out).toBe('');
    expect(r.err).toContain('SIGTERM: Cancelling: discarding staging and restoring the save config');
  });
});
