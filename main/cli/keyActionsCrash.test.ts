import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { cliArgs, runCli } from '../../testing/cli';
import { adminClient, eventually, startRedis, type RedisProcess } from '../../testing/redis';
import { TEST_PAUSE_ENV, TEST_PAUSE_RELEASE_ENV } from '../core/jobs/testPause';
import { countKeys, fillKeys, useCliRuns } from './keyActionsTestKit';

/*
 * Bulk key actions across a kill -9: of the Redis server (restarted on its port from its RDB,
 * a new process a SCAN cursor means nothing to) and of the cacheboard process itself.
 */

const { dir, env, servers } = useCliRuns('cb-cli-key-actions-crash-');

/** A server whose RDB lives in `at` (kept across its restarts). */
async function server(at: string, port?: number): Promise<{ proc: RedisProcess; admin: Redis }> {
  const proc = await startRedis({ dir: at, ...(port === undefined ? {} : { port }), readyTimeoutMs: 30_000 });
  servers.push(proc);
  return { proc, admin: await adminClient(proc) };
}

const fill = fillKeys;
const count = countKeys;

const json = (out: string) => JSON.parse(out) as Record<string, unknown>;

/** `keys delete --match f:*` running in a child process; `exited` resolves with its exit code and stdout. */
function startDelete(url: string, glob: string) {
  const child = spawn(process.execPath, cliArgs('keys', 'delete', '--match', glob, '--yes', '--json', '--url', url), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, out })),
  );
  return { child, exited };
}

/** The export bytes the data dir's checkpoints record, durable or write-ahead (0 before there is one). */
function checkpointBytes(): number {
  const folder = join(env.CACHEBOARD_DATA_DIR, 'key-actions');
  let bytes = 0;
  try {
    for (const name of readdirSync(folder).filter((f) => f.endsWith('.json') || f.endsWith('.ahead'))) {
      try {
        const cp = JSON.parse(readFileSync(join(folder, name), 'utf8')) as { export?: { bytes: number } };
        bytes = Math.max(bytes, cp.export?.bytes ?? 0);
      } catch {
        // A write-ahead file caught mid-write: the other one counts.
      }
    }
  } catch {
    return 0;
  }
  return bytes;
}

/** The one checkpoint the data dir holds now: the run id a resume takes. */
function onlyRunId(): string {
  const ids = readdirSync(join(env.CACHEBOARD_DATA_DIR, 'key-actions'))
    .filter((n) => n.endsWith('.json'))
    .map((n) => n.slice(0, -'.json'.length));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

describe('cacheboard keys delete across a kill -9', () => {
  it('a resume after the Redis server was killed and restarted from its RDB walks again from cursor 0, leaves no key and counts each key once', async () => {
    const n = 300_000;
    const at = mkdtempSync(join(dir, 'rdb-'));
    const first = await server(at);
    await fill(first.admin, 'f', n);
    await fill(first.admin, 'keep', 50);
    await first.admin.save();
    const url = `${first.proc.url}/0`;
    const run = startDelete(url, 'f:*');
    expect(await eventually(async () => (await first.admin.dbsize()) < n, 60_000, 2)).toBe(true);
    // Hold the run's UNLINKs (they wait, unanswered) so the kill lands with a page's actions out.
    await first.admin.client('PAUSE', '20000', 'WRITE');
    first.proc.kill('SIGKILL');
    const cut = await run.exited;
    expect(cut.code).toBe(1);
    const a = json(cut.out);
    expect(a.complete).toBe(false);
    const runId = String(a.resume);
    expect(Number(a.acted)).toBeGreaterThan(0);

    // The same port and dir: the new process loads the RDB saved before the run, every f:* key back.
    const again = await server(at, first.proc.port);
    expect(await count(again.admin, 'f:*')).toBe(n);
    const resumed = await runCli(['keys', 'delete', '--resume', runId, '--yes', '--json', '--url', url], undefined, env);
    expect(resumed.code).toBe(0);
    const b = json(resumed.out);
    expect(await count(again.admin, 'f:*')).toBe(0);
    expect(await count(again.admin, 'keep:*')).toBe(50);
    // Every f:* key was there for the second walk, and each is counted once: the ones the first part
    // counted (acted on again, since the restart brought them back) are not counted twice.
    expect(b).toMatchObject({ run_id: runId, complete: true, matched: n, acted: n, deleted: n, skipped: 0, errors: 0 });
    expect((b.notes as string[]).join(' ')).toMatch(/another server process than when the run was cut.*started again from the beginning/);
    // The page out at the kill was answered by nobody: its keys are the most the counts could miss.
    expect(b.exact).toBe(false);
    expect(Number(b.short_by_at_most)).toBeGreaterThan(0);
    expect(Number(b.short_by_at_most)).toBeLessThanOrEqual(8000);
  }, 180_000);

  it('an export resumed after the Redis server was killed and restarted from its RDB writes every key exactly once', async () => {
    const n = 100_000;
    const at = mkdtempSync(join(dir, 'rdb-'));
    const first = await server(at);
    await fill(first.admin, 'e', n);
    await first.admin.save();
    const url = `${first.proc.url}/0`;
    const file = join(dir, 'restart.resp');
    // The export stops itself once a checkpoint holds part of the file (a point too brief to hit
    // by timing on a busy machine), the server is killed there, then the export goes on into it.
    const release = join(at, 'release');
    const run = spawn(process.execPath, cliArgs('keys', 'export', '--match', 'e:*', '--out', file, '--yes', '--json', '--url', url), {
      env: { ...process.env, ...env, [TEST_PAUSE_ENV]: 'export-saved', [TEST_PAUSE_RELEASE_ENV]: release },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    run.stdout.on('data', (d: Buffer) => (out += d.toString()));
    run.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => run.on('close', (code) => resolve(code)));
    expect(await eventually(() => err.includes('cacheboard-test-pause: export-saved'), 60_000, 20)).toBe(true);
    // The resume keeps the part the checkpoint holds and its keys' hashes.
    expect(checkpointBytes()).toBeGreaterThan(0);
    first.proc.kill('SIGKILL');
    expect(await eventually(() => first.proc.exited(), 10_000)).toBe(true);
    writeFileSync(release, '');
    expect(await exited).toBe(1);
    const runId = String(json(out).resume);

    const again = await server(at, first.proc.port);
    const resumed = await runCli(['keys', 'export', '--resume', runId, '--yes', '--json', '--url', url], undefined, env);
    expect(resumed.code).toBe(0);
    expect(json(resumed.out)).toMatchObject({ complete: true, matched: n, acted: n, exported: n, errors: 0, exact: true, file });
    expect((json(resumed.out).notes as string[]).join(' ')).toMatch(/started again from the beginning/);
    const written = readFileSync(file);
    let restores = 0;
    for (let i = written.indexOf('RESTORE'); i >= 0; i = written.indexOf('RESTORE', i + 1)) restores++;
    expect(restores).toBe(n);
    await again.admin.flushall();
    const load = await runCli(['load', file, '--format', 'resp', '--url', url, '--mode', 'merge', '--json'], undefined, env);
    expect(load.code).toBe(0);
    expect(await again.admin.dbsize()).toBe(n);
  }, 180_000);

  it('a resume after the cacheboard process was killed mid-page counts exactly, or says by how many keys at most its counts are short', async () => {
    const n = 200_000;
    const at = mkdtempSync(join(dir, 'rdb-'));
    const { proc, admin } = await server(at);
    await fill(admin, 'g', n);
    const url = `${proc.url}/0`;
    const run = startDelete(url, 'g:*');
    expect(await eventually(async () => (await admin.dbsize()) < n, 60_000, 2)).toBe(true);
    await admin.client('PAUSE', '20000', 'WRITE');
    // The write-ahead checkpoint of the page held above is on disk before its UNLINKs went out.
    run.child.kill('SIGKILL');
    expect((await run.exited).signal).toBe('SIGKILL');
    await admin.client('UNPAUSE');
    const runId = onlyRunId();

    const resumed = await runCli(['keys', 'delete', '--resume', runId, '--yes', '--json', '--url', url], undefined, env);
    expect(resumed.code).toBe(0);
    const b = json(resumed.out);
    expect(await count(admin, 'g:*')).toBe(0);
    expect(b).toMatchObject({ run_id: runId, complete: true, skipped: 0, errors: 0 });
    const short = Number(b.short_by_at_most);
    // Lower bounds, short by at most the one page that was out: never more, and never quietly.
    expect(short).toBeGreaterThan(0);
    expect(short).toBeLessThanOrEqual(8000);
    expect(b.exact).toBe(false);
    expect(Number(b.acted)).toBeLessThanOrEqual(n);
    expect(Number(b.acted) + short).toBeGreaterThanOrEqual(n);
    expect(Number(b.matched)).toBe(Number(b.acted));
    expect((b.notes as string[]).join(' ')).toMatch(new RegExp(`stopped while acting on ${short} keys.*up to ${short} low`));
  }, 180_000);
});
