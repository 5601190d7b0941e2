import { closeSync, existsSync, fstatSync, openSync, readSync, renameSync, statSync, writeSync } from 'node:fs';

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

/**
 * Append-only JSON-lines audit log. Each entry is one write(2) of one line with
 * O_APPEND, so concurrent writers never interleave within a line and nothing
 * already written is ever rewritten; past MAX_BYTES the file is renamed to
 * `.1` (the previous `.1` is dropped) and a new one begun.
 */
export class AuditLog {
  constructor(private readonly file: string) {}

  append(e: Omit<AuditEntry, 'at'> & { at?: string }): void {
    const entry: AuditEntry = { at: e.at ?? new Date().toISOString(), user: e.user, action: e.action, target: e.target, outcome: e.outcome };
    if (e.detail !== undefined) entry.detail = e.detail.slice(0, 2000);
    if (e.figures !== undefined && e.figures.length > 0) entry.figures = e.figures.slice(0, 16);
    if (e.run !== undefined) entry.run = e.run;
    if (e.durationMs !== undefined) entry.durationMs = e.durationMs;
    try {
      if (existsSync(this.file) && statSync(this.file).size > MAX_BYTES) renameSync(this.file, `${this.file}.1`);
      const fd = openSync(this.file, 'a', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(entry)}\n`);
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      // The job itself must not fail because the log could not be written; say so loudly.
      console.error(`audit log ${this.file} not written: ${(err as Error).message}`);
    }
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

/** A start's detail and its end's, once each: an end that repeats its start says it all. */
function joinDetail(start: string | undefined, end: string | undefined): string | undefined {
  if (start === undefined || end === undefined) return end ?? start;
  return end.includes(start) ? end : `${start}; ${end}`;
}
