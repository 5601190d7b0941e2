import { dirname } from 'node:path';
import type { Redis } from 'ioredis';
import type { LoadReport } from '../../../../app/schemas/bulk';
import { commandRefusal, errorText } from './commandRefusal';
import { journalFile, markHeld, readJournal, removeJournal, writeJournal } from './saveJournal';

export type SaveConfigReport = NonNullable<LoadReport['saveConfig']>;

/** What suspendAutoSaves did, to be handed back to resumeAutoSaves. */
export interface SaveSuspension {
  host: string;
  port: number;
  jobId: string;
  /** The save config before the load; undefined when CONFIG is refused. */
  original: string | undefined;
  /** This load holds saves off and must resume them. */
  holding: boolean;
  /** For the report's warnings: why saves were left alone. */
  warning?: string;
  note?: string;
}

interface Held {
  original: string;
  file: string;
  holders: Set<string>;
}

/**
 * Loads into different DBs of one server may run at once, and `save` is
 * server-wide: the first load in turns saves off, the last one out puts them
 * back. (Otherwise the second would read "" as the original, or the first
 * would turn saves back on under the second.)
 */
const held = new Map<string, Held>();
const locks = new Map<string, Promise<unknown>>();

/** Run fn after every earlier call for the same server has finished. */
function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = locks.get(key) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.catch(() => undefined);
  locks.set(key, tail);
  void tail.then(() => {
    if (locks.get(key) === tail) locks.delete(key);
  });
  return run;
}

async function currentSave(redis: Redis): Promise<string> {
  const reply = (await redis.config('GET', 'save')) as unknown;
  return Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : '';
}

/**
 * Turn automatic saves off for the load: an RDB save forks, and with the load
 * writing every page the fork's copy-on-write can double memory. The original
 * is journaled on disk first (see saveJournal.ts).
 */
export function suspendAutoSaves(
  redis: Redis,
  opts: { journalDir: string; host: string; port: number; jobId: string },
): Promise<SaveSuspension> {
  const key = `${opts.host}:${opts.port}`;
  const base = { host: opts.host, port: opts.port, jobId: opts.jobId };
  return serialized(key, async () => {
    const already = held.get(key);
    if (already !== undefined) {
      const other = [...already.holders][0] ?? 'another load';
      already.holders.add(opts.jobId);
      return { ...base, original: already.original, holding: true, note: `automatic saves were already held off by load ${other}` };
    }
    let current: string;
    try {
      current = await currentSave(redis);
    } catch (err) {
      const refused = commandRefusal(err);
      if (refused === undefined) throw err;
      return { ...base, original: undefined, holding: false, warning: `CONFIG is not available (${refused}): automatic saves were left as configured` };
    }
    const file = journalFile(opts.journalDir, opts.host, opts.port);
    let original = current;
    if (current === '') {
      // Saves off with a journal left behind: a crashed load turned them off, so its original is the real one.
      const leftover = readJournal(file);
      if (leftover === undefined) {
        return { ...base, original: '', holding: false, note: 'automatic saves were already off; left unchanged' };
      }
      original = leftover.original;
    }
    writeJournal(opts.journalDir, { host: opts.host, port: opts.port, original, jobId: opts.jobId, at: Date.now() });
    if (current !== '') {
      try {
        await redis.config('SET', 'save', '');
      } catch (err) {
        removeJournal(file);
        const refused = commandRefusal(err);
        if (refused === undefined) throw err;
        return { ...base, original, holding: false, warning: `CONFIG SET is not available (${refused}): automatic saves stay "${original}" during the load` };
      }
    }
    held.set(key, { original, file, holders: new Set([opts.jobId]) });
    markHeld(opts.host, opts.port, true);
    return { ...base, original, holding: true };
  });
}

/**
 * Put the original save config back. Tries each connection in turn (the
 * control connection may have died with the load; a fresh one may work).
 * When none works the journal stays on disk for restorePendingSaves.
 */
export function resumeAutoSaves(s: SaveSuspension, connections: (() => Promise<Redis>)[]): Promise<SaveConfigReport | undefined> {
  if (s.original === undefined) return Promise.resolve(undefined);
  const original = s.original;
  if (!s.holding) {
    // Untouched: the server's config is as it was.
    const note = s.note ?? s.warning;
    return Promise.resolve(note === undefined ? { original, restored: true } : { original, restored: true, note });
  }
  const key = `${s.host}:${s.port}`;
  return serialized(key, async () => {
    const entry = held.get(key);
    if (entry === undefined) return { original, restored: true };
    entry.holders.delete(s.jobId);
    const next = [...entry.holders][0];
    if (next !== undefined) {
      // Keep the journal naming a running load, so restorePendingSaves elsewhere leaves it alone.
      writeJournal(dirname(entry.file), { host: s.host, port: s.port, original, jobId: next, at: Date.now() });
      return { original, restored: false, note: `automatic saves stay off while load ${next} on the same server runs; it restores them` };
    }
    held.delete(key);
    markHeld(s.host, s.port, false);
    let lastError = 'no connection';
    for (const connect of connections) {
      try {
        const redis = await connect();
        await redis.config('SET', 'save', original);
        removeJournal(entry.file);
        return { original, restored: true };
      } catch (err) {
        lastError = errorText(err);
        if (commandRefusal(err) !== undefined) break;
      }
    }
    return {
      original,
      restored: false,
      note: `could not restore automatic saves to "${original}" (${lastError}); ${entry.file} restores them at the next start`,
    };
  });
}

