import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../main/core/redisProcess/freePort';

export interface ServeProcess {
  /** http://127.0.0.1:port */
  readonly url: string;
  /** The serve process's id (tests read its memory from /proc). */
  readonly pid: number;
  /** Its own data dir (profiles, users, audit log), removed on stop. */
  readonly dataDir: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, wait for the exit, remove the data dir. */
  stop(): Promise<void>;
}

/**
 * A second `cacheboard serve` beside the suite's shared one, for a test that needs
 * other settings (users, a secret key, REDIS_URL). `prepare` runs on the fresh data
 * dir before the start, e.g. to write a users file.
 */
export async function startServe(env: Record<string, string>, prepare?: (dataDir: string) => Promise<unknown>): Promise<ServeProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cb-e2e-serve-'));
  await prepare?.(dataDir);
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/cacheboard.js', 'serve'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CACHEBOARD_DATA_DIR: dataDir, REDIS_URL: '', CACHEBOARD_CONFIG: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  // Polled without a test framework's helpers, so vitest tests start one too.
  const deadline = Date.now() + 20_000;
  while (!output.includes('is ready')) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`cacheboard serve did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, dataDir, output: () => output, stop };
}
