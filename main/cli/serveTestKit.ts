import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect } from 'vitest';
import { cliArgs } from '../../testing/cli';
import { adminClient, eventually } from '../../testing/redis';
import { writeUsersCsv } from '../core/bulk/job/loadTestKit';
import { freePort } from '../core/redisProcess/freePort';
import { useLiveServer } from './liveServerTestKit';
import { apiClient } from './serveApiTestKit';

/**
 * A live server (useLiveServer) with an import folder holding users.csv (300,000 rows),
 * real `cacheboard serve` processes on it, a WebSocket client of their API, and a swap
 * load started through it and held mid-way: for the serve signal tests and the fault suite.
 */
export function useServeKit(dirPrefix: string) {
  const { redis, dir } = useLiveServer(dirPrefix);
  const importDir = join(dir, 'import');
  beforeAll(() => {
    writeUsersCsv(importDir, 'users.csv', 300_000);
  });

  /** A real `cacheboard serve` on REDIS_URL with the import folder, its own data dir; resolves once ready. */
  async function startServe(dataDir = mkdtempSync(join(dir, 'data-'))) {
    mkdirSync(join(dataDir, 'journal'), { recursive: true });
    const port = await freePort();
    const child = spawn(process.execPath, cliArgs('serve'), {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        CACHEBOARD_DATA_DIR: dataDir,
        REDIS_URL: redis().url,
        CACHEBOARD_CONFIG: '',
        CACHEBOARD_IMPORT_DIR: importDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    if (!(await eventually(() => output.includes('is ready'), 30_000))) {
      child.kill('SIGKILL');
      throw new Error(`cacheboard serve did not start: ${output}`);
    }
    return { child, port, dataDir, exited, output: () => output };
  }

  /**
   * Starts a swap load of users.csv through the API and holds it mid-way with CLIENT PAUSE
   * WRITE (its pipe waits, nothing fails), so a signal lands while keys are half-staged
   * however fast this machine is. Returns the load's events as the page receives them.
   */
  async function loadHeldMidway(serve: { port: number; dataDir: string }) {
    const admin = await adminClient(redis());
    const staging = await adminClient(redis(), { db: 15 });
    const api = await apiClient(serve.port);
    const { files } = (await api.call('bulk.files', {})) as { files: { fileId: string; name: string }[] };
    const file = files.find((f) => f.name === 'users.csv');
    const { jobId } = (await api.call('bulk.start', {
      profileId: 'env',
      fileId: file?.fileId,
      format: 'csv',
      mapping: { key: 'user:{id}', type: 'string', value: 'value' },
      mode: 'swap',
      confirmDb: 0,
    })) as { jobId: string };
    const events = api.subscribe('bulk.progress', { jobId });
    // More than the staging marker (stagingMarker.ts): data keys are being written.
    expect(await eventually(async () => (await staging.dbsize()) > 1, 30_000)).toBe(true);
    await admin.client('PAUSE', '10000', 'WRITE');
    expect(await staging.dbsize()).toBeLessThan(300_000);
    expect(((await admin.config('GET', 'save')) as string[])[1]).toBe('');
    // The save journal, notify-keyspace-events' (liveWrites.ts) and the staging DB's journal (stagingJournal.ts).
    expect(
      readdirSync(join(serve.dataDir, 'journal'))
        .map((n) => n.split('-')[0])
        .sort(),
    ).toEqual(['notify', 'save', 'staging']);
    return events;
  }
  return { redis, dir, startServe, apiClient, loadHeldMidway };
}
