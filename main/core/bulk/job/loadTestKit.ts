import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Redis } from 'ioredis';
import { DEFAULT_MAX_SHRINK, type LoadEvent, type LoadReport } from '../../../../app/schemas/bulk';
import { specFor } from '../../../../testing/profiles';
import { closeAdmins, type RedisProcess } from '../../../../testing/redis';
import { Pool } from '../../pool/pool';
import { runLoad, type RunLoadInput } from './loadJob';

/*
 * Helpers for the load tests: input files, a snapshot of a DB to compare
 * byte for byte, and runLoad wired to a real pool against a test server.
 */

/**
 * A temp dir for a test file's inputs, removed after it (and the admin clients
 * closed), and a fresh journal dir for each test. Read both inside tests and hooks.
 */
export function useLoadDirs(prefix: string): { dir: () => string; journalDir: () => string } {
  let dir: string | undefined;
  let journal: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await closeAdmins();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    journal = mkdtempSync(join(dir as string, 'journal-'));
  });
  return { dir: () => dir as string, journalDir: () => journal as string };
}

function bulkString(s: string): string {
  return `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
}

export function respOf(commands: string[][]): string {
  return commands.map((args) => `*${args.length}\r\n${args.map(bulkString).join('')}`).join('');
}

export function writeResp(dir: string, name: string, commands: string[][]): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, respOf(commands));
  return path;
}

/** `id,value` rows: user:<i> -> value-<i>. */
export function writeUsersCsv(dir: string, name: string, count: number): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  const lines = ['id,value'];
  for (let i = 0; i < count; i++) lines.push(`${i},value-${i}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

export const usersMapping = { key: 'user:{id}', type: 'string' as const, value: 'value' };

/** Every key of a DB with its DUMP (type, encoding and value) and TTL: equal snapshots, equal data. */
export async function snapshotDb(admin: Redis, db: number): Promise<Map<string, string>> {
  await admin.select(db);
  const out = new Map<string, string>();
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const [dump, ttl] = await Promise.all([admin.dumpBuffer(key), admin.pttl(key)]);
      out.set(key, `${dump?.toString('hex') ?? 'gone'}|${ttl > 0 ? 'ttl' : String(ttl)}`);
    }
  } while (cursor !== '0');
  return new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export interface JobRun {
  report: LoadReport;
  events: LoadEvent[];
}

/** runLoad against `proc` through a Pool's dedicated connections, as the app wires it. */
export async function runJob(
  proc: RedisProcess,
  input: Partial<RunLoadInput> & Pick<RunLoadInput, 'path' | 'format' | 'mode' | 'journalDir'>,
  opts: { signal?: AbortSignal; onEvent?: (e: LoadEvent) => void } = {},
): Promise<JobRun> {
  // A spec given (another user, say) is the one every connection of the load uses.
  const spec = input.spec ?? specFor(proc);
  const pool = new Pool({ resolve: (id) => (id === 'p' ? { id, source: 'user', spec } : undefined) });
  const events: LoadEvent[] = [];
  try {
    const report = await runLoad(
      {
        jobId: `load_${Math.random().toString(36).slice(2, 10)}`,
        spec,
        fileLabel: input.path.split('/').pop() ?? input.path,
        targetDb: 0,
        force: false,
        maxErrors: 0,
        bgsave: false,
        allowEmpty: false,
        maxShrink: DEFAULT_MAX_SHRINK,
        allowEvictionRisk: false,
        allowLiveWrites: false,
        control: () => pool.dedicated('p', { purpose: 'bulk' }),
        ...input,
      },
      (e) => {
        events.push(e);
        opts.onEvent?.(e);
      },
      opts.signal ?? new AbortController().signal,
    );
    return { report, events };
  } finally {
    await pool.shutdown();
  }
}

export function phasesOf(events: LoadEvent[]): string[] {
  return events.flatMap((e) => (e.kind === 'phase' ? [e.phase] : []));
}
