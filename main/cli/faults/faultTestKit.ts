import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cliArgs, runCli, type CliRun } from '../../../testing/cli';
import { adminClient, eventually, type RedisProcess } from '../../../testing/redis';
import { STAGING_MARKER_KEY } from '../../core/bulk/job/stagingMarker';
import { TEST_PAUSE_ENV, type TestPausePoint } from '../../core/jobs/testPause';

/*
 * The fault suite's tools: a `cacheboard load` child to kill, and the one
 * check every case ends with: the live data as it was (or as the completed
 * load left it) and nothing of ours left behind, as the server, the data
 * folder and `cacheboard doctor` each see it.
 */

/** The save config useLiveServer sets: a load turns it off and it must come back. */
export const SAVE = '900 1';

export interface LoadChild {
  child: ChildProcess;
  dataDir: string;
  err: () => string;
  out: () => string;
  exited: Promise<number | null>;
}

/** `cacheboard load FILE` in swap mode into DB 0, with its own data folder (or `dataDir`). */
export function spawnLoad(redis: RedisProcess, csv: string, o: { dir: string; dataDir?: string; pauseAt?: TestPausePoint; url?: string }): LoadChild {
  const dataDir = o.dataDir ?? mkdtempSync(join(o.dir, 'data-'));
  const env: NodeJS.ProcessEnv = { ...process.env, CACHEBOARD_DATA_DIR: dataDir };
  delete env[TEST_PAUSE_ENV];
  if (o.pauseAt !== undefined) env[TEST_PAUSE_ENV] = o.pauseAt;
  const child = spawn(process.execPath, cliArgs('load', csv, '--url', `${o.url ?? redis.url}/0`, '--key', 'user:{id}', '--value', 'value', '--json'), {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, dataDir, err: () => err, out: () => out, exited };
}

/** The data keys in staging DB 15 (its marker not counted). */
export async function stagedKeys(redis: RedisProcess): Promise<number> {
  const staging = await adminClient(redis, { db: 15 });
  const n = await staging.dbsize();
  return (await staging.exists(STAGING_MARKER_KEY)) === 1 ? n - 1 : n;
}

/**
 * Hold the server's writes (CLIENT PAUSE WRITE: the load's pipe waits, nothing fails) once
 * staging holds `atLeast` keys, so the kill lands there however fast or loaded this machine is.
 */
export async function pauseWhenStaged(redis: RedisProcess, atLeast: number): Promise<number> {
  const admin = await adminClient(redis);
  expect(await eventually(async () => (await stagedKeys(redis)) >= atLeast, 60_000, 10)).toBe(true);
  await admin.client('PAUSE', '20000', 'WRITE');
  return stagedKeys(redis);
}

/** kill -9, then wait until the server has closed the dead process's connections. */
export async function killHard(redis: RedisProcess, load: LoadChild): Promise<void> {
  load.child.kill('SIGKILL');
  await load.exited;
  const admin = await adminClient(redis);
  await admin.client('UNPAUSE');
  const jobId = `load_cli${load.child.pid ?? ''}`;
  const gone = await eventually(async () => !String(await admin.client('LIST')).includes(`name=cacheboard:bulk:${jobId}:`), 10_000);
  expect(gone).toBe(true);
}

/** Resolves once the load says it reached `point` (testPause.ts); the process is frozen there. */
export async function pausedAt(load: LoadChild, point: TestPausePoint): Promise<void> {
  expect(await eventually(() => load.err().includes(`cacheboard-test-pause: ${point}`), 60_000, 10)).toBe(true);
}

export function cli(redis: RedisProcess | { url: string }, dataDir: string, ...args: string[]): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { CACHEBOARD_DATA_DIR: dataDir };
  return runCli([...args, '--url', `${redis.url}/0`], undefined, env);
}

export type LiveExpectation = { kind: 'old' } | { kind: 'new'; keys: number } | { kind: 'either'; keys: number };

/**
 * Every case's last word: DB 0 as it was (the one `live` key) or as the completed load left
 * it, every other DB empty, no staging marker in any DB, `save` back on and keyspace events
 * off, the journal empty,
 * and `cacheboard doctor --json` finding nothing stale.
 */
export async function expectNothingLeft(redis: RedisProcess, dataDir: string, live: LiveExpectation): Promise<'old' | 'new'> {
  const admin = await adminClient(redis);
  expect(((await admin.config('GET', 'save')) as string[])[1]).toBe(SAVE);
  // A swap load turns keyspace events on to count writes to the live DB (liveWrites.ts): off again, whatever happened.
  expect(((await admin.config('GET', 'notify-keyspace-events')) as string[])[1]).toBe('');
  const probe = admin.duplicate();
  try {
    for (let db = 0; db < 16; db++) {
      await probe.select(db);
      expect(await probe.exists(STAGING_MARKER_KEY)).toBe(0);
      if (db > 0) expect({ db, keys: await probe.dbsize() }).toEqual({ db, keys: 0 });
    }
  } finally {
    probe.disconnect();
  }
  const size = await admin.dbsize();
  const liveKey = await admin.get('live');
  const state = liveKey === 'before' && size === 1 ? 'old' : 'new';
  if (live.kind === 'old') expect({ liveKey, size }).toEqual({ liveKey: 'before', size: 1 });
  else if (live.kind === 'new' || state === 'new') expect({ liveKey, size }).toEqual({ liveKey: null, size: live.keys });
  const journal = join(dataDir, 'journal');
  expect(existsSync(journal) ? readdirSync(journal) : []).toEqual([]);
  const doctor = await cli(redis, dataDir, 'doctor', '--json');
  expect(doctor.code, doctor.out + doctor.err).toBe(0);
  expect(JSON.parse(doctor.out)).toMatchObject({ clean: true });
  return state;
}
