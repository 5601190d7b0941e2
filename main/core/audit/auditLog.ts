import { closeSync, existsSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { AppError } from '../../../app/errors';

export interface AuditEntry {
  /** ISO time. */
  at: string;
  /** Who: the signed-in user, "local" in local mode, "desktop" in the app, "cli" for the CLI. */
  user: string;
  /** e.g. bulk.load, bulk.swap, bulk.flush, bgsave, bgrewriteaof, config.set, monitor, audience.trial, a refused call's name */
  action: string;
  /** host:port[/db] */
  target: string;
  outcome: 'started' | 'ok' | 'failed' | 'cancelled' | 'refused';
  /** Short, secret-free detail in words: the error message, a file name. */
  detail?: string;
  /** The numbers of the detail, as numbers: the page formats them (app/schemas/audit.ts AuditFigure). */
  figures?: AuditFigure[];
  /** The same on a run's start and its end, so reading folds the two into one row. */
  run?: string;
  /** On an end: how long since its start. */
  durationMs?: number;
}

export interface AuditFigure {
  n: number;
  /** `bytes`, `seconds`, or the noun counted ("records"). */
  unit: string;
}

/** Rotate to `<file>.1` past this size, so the log cannot fill the disk. */
const MAX_BYTES = 50 * 1024 * 1024;
/** Longest entry read back by tail(); longer lines are skipped. */
const TAIL_CHUNK = 256 * 1024;
/** Entries held while the file cannot be written (a full disk), written first once it can; past this they are counted, not kept. */
const MAX_PENDING = 1000;

/**
 * Append-only JSON-lines audit log. Each entry is one write(2) of one line with
 * O_APPEND, so concurrent writers never interleave within a line and nothing
 * already written is ever rewritten; past MAX_BYTES the file is renamed to
 * `.1` (the previous `.1` is dropped) and a new one begun.
 *
 * A write that must be audited is refused when its record cannot be written:
 * `appendFirst` writes (and fsyncs) the record before the write and throws
 * AUDIT_UNAVAILABLE when it cannot (a full disk, a read-only or lost data dir),
 * so the caller never sends the write. `append` is for what has already
 * happened (an end, a refusal): it cannot be undone, so an entry the file
 * cannot take now is held, bounded, and written ahead of the next one that
 * gets through, with a line counting any it had to drop.
 */
export class AuditLog {
  private readonly pending: AuditEntry[] = [];
  private dropped = 0;

  constructor(private readonly file: string) {}

  /** Record what happened; never throws (see the class comment). */
  append(e: Omit<AuditEntry, 'at'> & { at?: string }): void {
    const entry = normalize(e);
    try {
      this.write([entry], false);
    } catch (err) {
      this.hold(entry, err);
    }
  }

  /**
   * Record what is about to be done, durably, before it is done: throws AUDIT_UNAVAILABLE (the
   * caller then refuses the write) when the record cannot be written. The refused attempt is
   * held as a `refused` entry, written once the log can take it again.
   */
  appendFirst(e: Omit<AuditEntry, 'at'> & { at?: string }): void {
    const entry = normalize(e);
    try {
      this.write([entry], true);
    } catch (err) {
      const why = reason(err);
      this.hold({ ...entry, outcome: 'refused', detail: joinDetail(entry.detail, `refused: the audit log could not be written (${why})`) as string }, err);
      throw new AppError(
        'AUDIT_UNAVAILABLE',
        `Refused: this change must be recorded in the audit log first, and the audit log cannot be written (${why}). Nothing was changed. Free space in (or repair) the data dir, then try again.`,
      );
    }
  }

  /** Held entries first, then `entries`, in one write; fsynced when `durable`. On success the held ones are gone. */
  private write(entries: AuditEntry[], durable: boolean): void {
    const held = this.pending.length;
    const lines = [...this.pending, ...(this.dropped > 0 ? [droppedEntry(this.dropped)] : []), ...entries].map((x) => `${JSON.stringify(x)}\n`).join('');
    if (existsSync(this.file) && statSync(this.file).size > MAX_BYTES) renameSync(this.file, `${this.file}.1`);
    const fd = openSync(this.file, 'a', 0o600);
    try {
      const buf = Buffer.from(lines);
      // One write(2) of whole lines: a short write (a disk filling up meanwhile) is cut back, never left torn.
      const n = writeSync(fd, buf);
      if (n < buf.length) {
        ftruncateSync(fd, fstatSync(fd).size - n);
        throw Object.assign(new Error('no space left on device (a short write)'), { code: 'ENOSPC' });
      }
      if (durable) fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.pending.splice(0, held);
    this.dropped = 0;
  }

  private hold(entry: AuditEntry, err: unknown): void {
    if (this.pending.length < MAX_PENDING) this.pending.push(entry);
    else this.dropped++;
    // Said loudly where an operator looks; the entry itself goes to the log once it can be written.
    console.error(
      `audit log ${this.file} not written (${reason(err)}): ${this.pending.length} entries held${this.dropped > 0 ? `, ${this.dropped} dropped` : ''}`,
    );
  }

  /** The newest `n` entries, newest first. Reads only the file's tail. */
  tail(n: number): AuditEntry[] {
    if (!existsSync(this.file)) return [];
    const fd = openSync(this.file, 'r');
    try {
      const size = fstatSync(fd).size;
      const out: AuditEntry[] = [];
      let end = size;
      let carry = '';
      while (end > 0 && out.length < n) {
        const start = Math.max(0, end - TAIL_CHUNK);
        const buf = Buffer.alloc(end - start);
        readSync(fd, buf, 0, buf.length, start);
        const text = buf.toString('utf8') + carry;
        const lines = text.split('\n');
        carry = start > 0 ? (lines.shift() ?? '') : '';
        for (let i = lines.length - 1; i >= 0 && out.length < n; i--) {
          const line = lines[i];
          if (line === undefined || line === '') continue;
          try {
            out.push(JSON.parse(line) as AuditEntry);
          } catch {
            // a torn last line after a crash: skip it
          }
        }
        end = start;
      }
      return out;
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * Entries as people read them, newest first: a run's start is folded into its end (which
 * carries the duration), so a finished BGSAVE or load is one row. A start with no end
 * in `entries` stays, as `started`: still running, or ended with the process. The file
 * keeps both lines; only the reading folds them.
 */
export function foldRuns(entries: readonly AuditEntry[]): AuditEntry[] {
  const ended = new Map<string, AuditEntry>();
  const out: AuditEntry[] = [];
  for (const e of entries) {
    if (e.run === undefined) {
      out.push(e);
    } else if (e.outcome !== 'started') {
      const row = { ...e };
      ended.set(e.run, row);
      out.push(row);
    } else {
      const end = ended.get(e.run);
      if (end === undefined) {
        out.push(e);
        continue;
      }
      // The start said what was begun (a file, a size); the end what came of it.
      const detail = joinDetail(e.detail, end.detail);
      if (detail !== undefined) end.detail = detail;
      if (e.figures !== undefined) end.figures = [...e.figures, ...(end.figures ?? [])];
      end.durationMs ??= Date.parse(end.at) - Date.parse(e.at);
    }
  }
  return out;
}

function normalize(e: Omit<AuditEntry, 'at'> & { at?: string }): AuditEntry {
  const entry: AuditEntry = { at: e.at ?? new Date().toISOString(), user: e.user, action: e.action, target: e.target, outcome: e.outcome };
  if (e.detail !== undefined) entry.detail = e.detail.slice(0, 2000);
  if (e.figures !== undefined && e.figures.length > 0) entry.figures = e.figures.slice(0, 16);
  if (e.run !== undefined) entry.run = e.run;
  if (e.durationMs !== undefined) entry.durationMs = e.durationMs;
  return entry;
}

/** The line that says entries were lost while the log could not be written. */
function droppedEntry(n: number): AuditEntry {
  return {
    at: new Date().toISOString(),
    user: 'cacheboard',
    action: 'audit.gap',
    target: '—',
    outcome: 'failed',
    detail: `${n} audit entries were lost while the audit log could not be written`,
  };
}

function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code === 'ENOSPC' ? 'ENOSPC: no space left on device' : (e.code ?? (err instanceof Error ? err.message : String(err)));
}

/** A start's detail and its end's, once each: an end that repeats its start says it all. */
function joinDetail(start: string | undefined, end: string | undefined): string | undefined {
  if (start === undefined || end === undefined) return end ?? start;
  return end.includes(start) ? end : `${start}; ${end}`;
}
