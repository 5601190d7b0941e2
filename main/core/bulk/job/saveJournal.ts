import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { atomicWriteFileSync } from '../../pool/atomicWrite';
import { closeRedis } from '../../pool/closeRedis';
import { parseClientList } from '../../redis/clientList';
import { commandRefusal, errorText } from './commandRefusal';
import { BULK_NAME_PREFIX, parseBulkConnectionName } from './targetLock';

/**
 * The server-wide settings a load changes for its duration: `save` (turned
 * off, autoSaves.ts) and `notify-keyspace-events` (turned on, to count writes
 * to the live DB: liveWrites.ts).
 */
export type HeldParam = 'save' | 'notify-keyspace-events';

/** Journal file names: `<prefix>-<host>_<port>.json`. */
const FILE_PREFIX: Record<HeldParam, string> = { save: 'save', 'notify-keyspace-events': 'notify' };
export const CONFIG_JOURNAL_NAME = /^(save|notify)-.+\.json$/;

/**
 * A setting a load changed, written to disk before its CONFIG SET so that a
 * crash (ours; the server keeps running with the load's value, since CONFIG
 * SET is not persisted) is repaired at the next start by restorePendingSaves.
 */
export interface SaveJournalEntry {
  host: string;
  port: number;
  /** Absent: `save` (entries written before notify-keyspace-events was journaled too). */
  param?: HeldParam;
  /** The value to put back, e.g. "3600 1 300 100 60 10000". */
  original: string;
  /**
   * The value the load set (absent: "", saves off). Restored only while the
   * server still has it: another value means someone changed it since.
   */
  applied?: string;
  jobId: string;
  /** Epoch ms when saves were turned off. */
  at: number;
}

/** `<journalDir>/save-<host>_<port>.json` (notify-… for notify-keyspace-events); characters unsafe in a file name (IPv6 colons) become "_". */
export function journalFile(journalDir: string, host: string, port: number, param: HeldParam = 'save'): string {
  return join(journalDir, `${FILE_PREFIX[param]}-${host.replace(/[^A-Za-z0-9.-]/g, '_')}_${port}.json`);
}

export function writeJournal(journalDir: string, entry: SaveJournalEntry): string {
  mkdirSync(journalDir, { recursive: true, mode: 0o700 });
  const file = journalFile(journalDir, entry.host, entry.port, entry.param);
  atomicWriteFileSync(file, `${JSON.stringify(entry, null, 2)}\n`);
  return file;
}

export function removeJournal(file: string): void {
  rmSync(file, { force: true });
}

/** A journal entry, or undefined when the file is absent, torn or not one of ours. */
export function readJournal(file: string): SaveJournalEntry | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const o = parsed as Record<string, unknown>;
  const { host, port, original, jobId, at, param, applied } = o;
  if (typeof host !== 'string' || typeof port !== 'number' || typeof original !== 'string') return undefined;
  if (param !== undefined && param !== 'save' && param !== 'notify-keyspace-events') return undefined;
  return {
    host,
    port,
    ...(param === undefined ? {} : { param }),
    original,
    ...(typeof applied === 'string' ? { applied } : {}),
    jobId: typeof jobId === 'string' ? jobId : '',
    at: typeof at === 'number' ? at : 0,
  };
}

export interface PendingSaveResult {
  file: string;
  host?: string;
  port?: number;
  param?: HeldParam;
  original?: string;
  jobId?: string;
  /**
   * restored: save was "" and is put back. already-restored: the server has
   * the original again (it restarted from its config file). changed-since:
   * someone set another non-empty value; theirs is kept. in-use: the load that
   * wrote it is still running. failed: the server could not be reached or
   * refused; the journal stays for next time. unreadable: not a journal.
   */
  action: 'restored' | 'already-restored' | 'changed-since' | 'in-use' | 'failed' | 'unreadable';
  message: string;
}

/** `param@host:port` of settings a load in this process holds (see autoSaves.ts); never restored from here. */
const heldInProcess = new Set<string>();
function heldKey(host: string, port: number, param: HeldParam): string {
  return `${param}@${host}:${port}`;
}
export function markHeld(host: string, port: number, held: boolean, param: HeldParam = 'save'): void {
  if (held) heldInProcess.add(heldKey(host, port, param));
  else heldInProcess.delete(heldKey(host, port, param));
}

/** How messages name a setting. */
function settingName(param: HeldParam): string {
  return param === 'save' ? 'automatic saves' : 'notify-keyspace-events';
}

/** Whether a connection of load `jobId` is still open on the server (its name says so in CLIENT LIST). */
async function loadStillRunning(redis: Redis, jobId: string): Promise<boolean> {
  if (jobId === '') return false;
  let list: string;
  try {
    list = String(await redis.client('LIST'));
  } catch (err) {
    if (commandRefusal(err) !== undefined) return false; // cannot tell: restoring is the safer default
    throw err;
  }
  return parseClientList(list).clients.some(({ name }) => name.startsWith(BULK_NAME_PREFIX) && parseBulkConnectionName(name)?.jobId === jobId);
}

async function restoreOne(file: string, entry: SaveJournalEntry, redis: Redis): Promise<PendingSaveResult> {
  const param = entry.param ?? 'save';
  const base = { file, host: entry.host, port: entry.port, param, original: entry.original, jobId: entry.jobId };
  const where = `${entry.host}:${entry.port}`;
  const name = settingName(param);
  const Name = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  if (await loadStillRunning(redis, entry.jobId)) {
    return { ...base, action: 'in-use', message: `Load ${entry.jobId} is still running on ${where}; it restores ${name} itself` };
  }
  const reply = (await redis.config('GET', param)) as unknown;
  const current = Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : '';
  if (current === entry.original) {
    removeJournal(file);
    return { ...base, action: 'already-restored', message: `${Name} on ${where} are already "${entry.original}"` };
  }
  if (current !== (entry.applied ?? '')) {
    removeJournal(file);
    return {
      ...base,
      action: 'changed-since',
      message: `${Name} on ${where} were changed to "${current}" since load ${entry.jobId} changed them; left as they are`,
    };
  }
  await redis.config('SET', param, entry.original);
  removeJournal(file);
  return {
    ...base,
    action: 'restored',
    message: `Restored ${name} on ${where} to "${entry.original}" (changed by load ${entry.jobId}, which did not finish)`,
  };
}

/**
 * Put back save configs that a load turned off and could not restore (the
 * process crashed, or the server was unreachable at the end). Run at startup.
 * `connect` gives a connection to the journaled server: a lease (released when
 * done) or a bare client (closed when done, so hand out a fresh one).
 */
export async function restorePendingSaves(
  journalDir: string,
  connect: (host: string, port: number) => Promise<Redis | { redis: Redis; release(): Promise<void> }>,
  /** Only this server's journal (a CLI command connecting to it); every one when absent. */
  only?: { host: string; port: number },
): Promise<PendingSaveResult[]> {
  let names: string[];
  try {
    names = readdirSync(journalDir);
  } catch {
    return [];
  }
  const out: PendingSaveResult[] = [];
  for (const name of names.filter((n) => CONFIG_JOURNAL_NAME.test(n)).sort()) {
    const file = join(journalDir, name);
    const entry = readJournal(file);
    if (entry === undefined) {
      out.push({ file, action: 'unreadable', message: `${file} is not a save journal; left in place` });
      continue;
    }
    if (only !== undefined && (entry.host !== only.host || entry.port !== only.port)) continue;
    const param = entry.param ?? 'save';
    if (heldInProcess.has(heldKey(entry.host, entry.port, param))) {
      out.push({
        file,
        host: entry.host,
        port: entry.port,
        param,
        original: entry.original,
        jobId: entry.jobId,
        action: 'in-use',
        message: `A load in this process holds ${settingName(param)} on ${entry.host}:${entry.port}; it restores them itself`,
      });
      continue;
    }
    let done: (() => Promise<void>) | undefined;
    try {
      const got = await connect(entry.host, entry.port);
      const redis = 'release' in got ? got.redis : got;
      done = 'release' in got ? () => got.release() : () => closeRedis(redis);
      out.push(await restoreOne(file, entry, redis));
    } catch (err) {
      out.push({
        file,
        host: entry.host,
        port: entry.port,
        original: entry.original,
        jobId: entry.jobId,
        action: 'failed',
        message: `Could not restore ${settingName(param)} on ${entry.host}:${entry.port} to "${entry.original}": ${errorText(err)}; will retry at the next start`,
      });
    } finally {
      await done?.().catch(() => undefined);
    }
  }
  return out;
}
