import { dirname } from 'node:path';
import type { Redis } from 'ioredis';
import { commandRefusal, errorText } from './commandRefusal';
import { journalFile, markHeld, readJournal, removeJournal, writeJournal, type HeldParam } from './saveJournal';

/** One server-wide setting a load changes for its duration, and how its messages name it. */
export interface SettingSpec {
  param: HeldParam;
  /** The value the load needs, given the current one. Equal to it: nothing to change. */
  want(current: string): string;
  /** "automatic saves", as a sentence's subject ("… were left as configured"). */
  name: string;
  /** Said when the server already has the value the load wants and no crashed load's journal explains it. */
  alreadyNote: string;
}

/** What holdSetting did, to be handed back to releaseSetting. */
export interface SettingHold {
  param: HeldParam;
  host: string;
  port: number;
  jobId: string;
  /** The value before the load; undefined when CONFIG is refused. */
  original: string | undefined;
  /** The value in force during the load (CONFIG GET's normalized form); undefined when CONFIG is refused. */
  applied: string | undefined;
  /** This load holds the setting and must put it back. */
  holding: boolean;
  /** For the report's warnings: why the setting was left alone. */
  warning?: string;
  note?: string;
}

export interface SettingRelease {
  original: string;
  restored: boolean;
  note?: string;
}

interface Held {
  original: string;
  applied: string;
  file: string;
  holders: Set<string>;
}

/**
 * Loads into different DBs of one server may run at once, and settings are
 * server-wide: the first load in changes one, the last one out puts it back.
 * (Otherwise the second would read the first one's value as the original, or
 * the first would put it back under the second.)
 */
const held = new Map<string, Held>();
const locks = new Map<string, Promise<unknown>>();

/** Run fn after every earlier call for the same key has finished. */
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

async function currentValue(redis: Redis, param: HeldParam): Promise<string> {
  const reply = (await redis.config('GET', param)) as unknown;
  return Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : '';
}

/**
 * Change `spec.param` for the load, journaling the original on disk first
 * (saveJournal.ts) so that a crash leaves the next start a way to put it back.
 */
export function holdSetting(redis: Redis, spec: SettingSpec, opts: { journalDir: string; host: string; port: number; jobId: string }): Promise<SettingHold> {
  const key = `${spec.param}@${opts.host}:${opts.port}`;
  const base = { param: spec.param, host: opts.host, port: opts.port, jobId: opts.jobId };
  return serialized(key, async () => {
    const already = held.get(key);
    if (already !== undefined) {
      const other = [...already.holders][0] ?? 'another load';
      already.holders.add(opts.jobId);
      return { ...base, original: already.original, applied: already.applied, holding: true, note: `${spec.name} were already held by load ${other}` };
    }
    let current: string;
    try {
      current = await currentValue(redis, spec.param);
    } catch (err) {
      const refused = commandRefusal(err);
      if (refused === undefined) throw err;
      return {
        ...base,
        original: undefined,
        applied: undefined,
        holding: false,
        warning: `CONFIG is not available (${refused}): ${spec.name} were left as configured`,
      };
    }
    const file = journalFile(opts.journalDir, opts.host, opts.port, spec.param);
    const wanted = spec.want(current);
    let original = current;
    if (wanted === current) {
      // Already the load's value with a journal left behind: a crashed load set it, so its original is the real one.
      const leftover = readJournal(file);
      if (leftover === undefined || (leftover.applied !== undefined && leftover.applied !== current)) {
        return { ...base, original: current, applied: current, holding: false, note: spec.alreadyNote };
      }
      original = leftover.original;
    }
    writeJournal(opts.journalDir, { host: opts.host, port: opts.port, param: spec.param, original, applied: wanted, jobId: opts.jobId, at: Date.now() });
    let applied = current;
    if (wanted !== current) {
      try {
        await redis.config('SET', spec.param, wanted);
        // Redis normalizes some values (notify-keyspace-events' flag order): keep what it reports, to compare at restore.
        applied = await currentValue(redis, spec.param);
        if (applied !== wanted)
          writeJournal(opts.journalDir, { host: opts.host, port: opts.port, param: spec.param, original, applied, jobId: opts.jobId, at: Date.now() });
      } catch (err) {
        removeJournal(file);
        const refused = commandRefusal(err);
        if (refused === undefined) throw err;
        return {
          ...base,
          original,
          applied: undefined,
          holding: false,
          warning: `CONFIG SET is not available (${refused}): ${spec.name} stay "${original}" during the load`,
        };
      }
    }
    held.set(key, { original, applied, file, holders: new Set([opts.jobId]) });
    markHeld(opts.host, opts.port, true, spec.param);
    return { ...base, original, applied, holding: true };
  });
}

/**
 * Put the original value back. Tries each connection in turn (the control
 * connection may have died with the load; a fresh one may work). When none
 * works the journal stays on disk for restorePendingSaves.
 */
export function releaseSetting(s: SettingHold, name: string, connections: (() => Promise<Redis>)[]): Promise<SettingRelease | undefined> {
  if (s.original === undefined) return Promise.resolve(undefined);
  const original = s.original;
  if (!s.holding) {
    // Untouched: the server's config is as it was.
    const note = s.note ?? s.warning;
    return Promise.resolve(note === undefined ? { original, restored: true } : { original, restored: true, note });
  }
  const key = `${s.param}@${s.host}:${s.port}`;
  return serialized(key, async () => {
    const entry = held.get(key);
    if (entry === undefined) return { original, restored: true };
    entry.holders.delete(s.jobId);
    const next = [...entry.holders][0];
    if (next !== undefined) {
      // Keep the journal naming a running load, so restorePendingSaves elsewhere leaves it alone.
      writeJournal(dirname(entry.file), { host: s.host, port: s.port, param: s.param, original, applied: entry.applied, jobId: next, at: Date.now() });
      return { original, restored: false, note: `${name} stay as they are while load ${next} on the same server runs; it restores them` };
    }
    held.delete(key);
    markHeld(s.host, s.port, false, s.param);
    let lastError = 'no connection';
    for (const connect of connections) {
      try {
        const redis = await connect();
        await redis.config('SET', s.param, original);
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
      note: `could not restore ${name} to "${original}" (${lastError}); ${entry.file} restores them at the next start`,
    };
  });
}
