import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { AppError } from '../../../../app/errors';
import { KeyAction, KeyActionOp, KeySelection, Pace, ShardCounts } from '../../../../app/schemas/keyActions';
import { atomicWriteFileSync } from '../../pool/atomicWrite';
import { pidAlive } from '../../jobs/pidAlive';

/**
 * One shard's place: where its SCAN stands (the cursor after the last page fully acted on), its
 * counts, and what a cursor needs to mean anything: the server process it was read from
 * (`server`: INFO's run_id and master_replid; a restart or a promotion changes it, and with it
 * the table order a cursor walks). `inFlight` is written before a page's actions go out and
 * cleared once they are answered: a process that dies between leaves it, and a resume knows
 * how many keys' outcome went with it.
 */
export const ShardCheckpoint = ShardCounts.extend({
  cursor: z.string().regex(/^\d{1,24}$/),
  server: z.string().optional(),
  /** DBSIZE when this shard's walk began: the denominator of `scanned`, kept across a resume (a delete shrinks DBSIZE). */
  dbsize: z.number().int().min(0).optional(),
  inFlight: z.number().int().min(0).default(0),
  short: z.number().int().min(0).default(0),
});
export type ShardCheckpoint = z.output<typeof ShardCheckpoint>;

/**
 * A real run's state on disk (`<data dir>/key-actions/<runId>.json`, 0600, atomic writes),
 * rewritten every ~1 s and when the run ends: enough to resume it after a crash, a cancel or a
 * lost connection, and to add the counts of both parts up. Removed once the run is done.
 * Holds no password: a resume connects with the profile (or the flags) it is given again.
 */
export const Checkpoint = z.object({
  version: z.literal(1),
  runId: z.string().regex(/^[A-Za-z0-9_-]{4,64}$/),
  profileId: z.string(),
  /** Where the run acts ("profile/db", or the CLI's host:port/db): a resume must aim at the same place. */
  target: z.string(),
  db: z.number().int().min(0),
  op: KeyActionOp,
  selection: KeySelection,
  action: z.union([KeyAction, z.object({ op: z.literal('export') }).strict()]),
  pace: Pace,
  startedAt: z.number(),
  updatedAt: z.number(),
  /** Seconds spent over every part so far. */
  seconds: z.number(),
  total: z.number(),
  /** running: a process is (or was, until it crashed) on it; cut: it stopped before its end. */
  state: z.enum(['running', 'cut']),
  pid: z.number().int(),
  host: z.string(),
  shards: z.array(ShardCheckpoint),
  errorSamples: z.array(z.string()),
  /** The length of the run's counted-keys file (seenKeys.ts) at this checkpoint. */
  seenBytes: z.number().int().min(0).optional(),
  /** Export: the file asked for, the temp file written so far, and its length at this checkpoint. */
  export: z.object({ out: z.string(), tmp: z.string(), bytes: z.number().int().min(0) }).optional(),
  /** The process's save count: orders the durable and the write-ahead checkpoint saved in one ms. */
  seq: z.number().int().min(0).optional(),
});
export type Checkpoint = z.output<typeof Checkpoint>;

/** A new run's id: what `--resume` and keys.actions.start's `resume` take. */
export function newRunId(): string {
  return `ka${randomBytes(9).toString('base64url')}`;
}

export class CheckpointStore {
  constructor(readonly dir: string) {}

  private file(runId: string): string {
    return join(this.dir, `${runId}.json`);
  }

  /** The write-ahead checkpoint's file, beside the durable one (not `.json`: resumable() lists those). */
  private aheadFile(runId: string): string {
    return join(this.dir, `${runId}.ahead`);
  }

  /** The directory was made by this store (once, then again at each durable save). */
  private made = false;
  /** Saves so far in this process: which of the two files is newer when both hold the same time. */
  private seq = 0;

  /**
   * `durable`: fsynced (the ~1 s checkpoints and the last), replacing `<runId>.json` atomically.
   * Else the write-ahead checkpoint before each page's actions, too frequent to fsync: written
   * over `<runId>.ahead` in place by one write, which a killed process cannot tear (the page
   * cache outlives it). Not by a rename over the file, nor truncating it: ext4 flushes the old
   * file's data on either (auto_da_alloc), ~0.5 ms each, a second of a 1M-key delete. A power
   * loss may tear it; load() then falls back to the durable one.
   */
  save(cp: Checkpoint, durable = true): void {
    // The directory is made again with each durable save (a run's first save is one), not before
    // each page's (openAhead makes it when it is gone).
    if (durable || !this.made) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.made = true;
    }
    const text = `${JSON.stringify({ ...cp, seq: ++this.seq })}\n`;
    if (durable) return atomicWriteFileSync(this.file(cp.runId), text);
    // Not O_TRUNC, not O_APPEND (which would ignore the offset): written over from the start.
    const fd = this.openAhead(cp.runId);
    try {
      // Padded to the file's length, so no byte of a longer save is left after this one (JSON.parse skips the spaces).
      const size = fstatSync(fd).size;
      const bytes = Buffer.byteLength(text);
      writeSync(fd, bytes >= size ? text : `${text.slice(0, -1)}${' '.repeat(size - bytes)}\n`, 0);
    } finally {
      closeSync(fd);
    }
  }

  private openAhead(runId: string): number {
    const open = () => openSync(this.aheadFile(runId), constants.O_WRONLY | constants.O_CREAT, 0o600);
    try {
      return open();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      return open();
    }
  }

  /** The file of the run's counted keys (seenKeys.ts). */
  seenFile(runId: string): string {
    return join(this.dir, `${runId}.seen`);
  }

  /** The run's checkpoint: NOT_FOUND when there is none (finished runs leave none), VALIDATION when unreadable. */
  load(runId: string): Checkpoint {
    let text: string;
    try {
      text = readFileSync(this.file(runId), 'utf8');
    } catch {
      throw new AppError('NOT_FOUND', `No cut bulk key action with id ${runId} (a finished run leaves nothing to resume)`, 'resume');
    }
    return this.newest(parseCheckpoint(text, runId));
  }

  /** `durable`, or the write-ahead checkpoint saved after it, when there is one and it is whole. */
  private newest(durable: Checkpoint): Checkpoint {
    let ahead: Checkpoint;
    try {
      ahead = Checkpoint.parse(JSON.parse(readFileSync(this.aheadFile(durable.runId), 'utf8')));
    } catch {
      return durable;
    }
    const later = ahead.updatedAt > durable.updatedAt || (ahead.updatedAt === durable.updatedAt && (ahead.seq ?? 0) > (durable.seq ?? 0));
    return ahead.runId === durable.runId && ahead.pid === durable.pid && later ? ahead : durable;
  }

  remove(runId: string): void {
    rmSync(this.file(runId), { force: true });
    rmSync(this.aheadFile(runId), { force: true });
    rmSync(this.seenFile(runId), { force: true });
  }

  /** Runs of `profileId` cut before their end, newest first; `active` are run ids running in this process. */
  resumable(profileId: string, active: ReadonlySet<string>): Checkpoint[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const out: Checkpoint[] = [];
    for (const n of names) {
      let cp: Checkpoint;
      try {
        cp = this.newest(parseCheckpoint(readFileSync(join(this.dir, n), 'utf8'), n));
      } catch {
        continue;
      }
      if (cp.profileId === profileId && !active.has(cp.runId) && !stillRunning(cp)) out.push(cp);
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }
}

function parseCheckpoint(text: string, name: string): Checkpoint {
  try {
    return Checkpoint.parse(JSON.parse(text));
  } catch {
    throw new AppError('VALIDATION', `The checkpoint of run ${name} is unreadable; it cannot be resumed`, 'resume');
  }
}

/** A "running" checkpoint whose process is alive on this host is another process's live run, not a cut one. */
export function stillRunning(cp: Checkpoint): boolean {
  if (cp.state !== 'running' || cp.host !== hostname()) return false;
  if (cp.pid === process.pid) return false;
  return pidAlive(cp.pid);
}
