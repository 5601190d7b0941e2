import { keyCountOf, type KeyCountEffect } from '../../../../app/redis/commands';
import type { KeyTracker } from '../../resp/types';
import type { Row } from './row';

/** Longest name worth looking up; longer ones are 'unknown'. */
const MAX_NAME = 32;

/**
 * Reports the keys of passed-through commands (resp, commands formats) to the
 * KeyTracker, so swap mode can compare DBSIZE with distinct keys written.
 * Names match case-insensitively, as Redis matches them. A command that may
 * delete or move keys (DEL, RENAME, FLUSHDB, EXPIREAT with a past time,
 * SELECT…) is reported once by name through untrackable().
 */
export class CommandKeys {
  private readonly reported = new Set<string>();
  // Files repeat one command: remember the last name's bytes and skip the lookup.
  private readonly lastName = Buffer.alloc(MAX_NAME);
  private lastLen = -1;
  private lastKind: KeyCountEffect = 'unknown';
  private lastUpper = '';

  constructor(private readonly tracker: KeyTracker) {}

  /** The command in row[0, argc). */
  track(row: Row, argc: number): void {
    const kind = this.kindOf(row.bufs[0] as Buffer, row.starts[0] as number, row.ends[0] as number);
    switch (kind) {
      case 'creates':
        if (argc >= 2) this.tracker.add(row.bufs[1] as Buffer, row.starts[1] as number, row.ends[1] as number);
        return;
      case 'pairs':
        for (let i = 1; i < argc; i += 2) this.tracker.add(row.bufs[i] as Buffer, row.starts[i] as number, row.ends[i] as number);
        return;
      case 'timeout':
        if (argc >= 3 && isPositive(row.bufs[2] as Buffer, row.starts[2] as number, row.ends[2] as number)) return;
        this.untrackable(this.lastUpper);
        return;
      case 'neutral':
        return;
      default:
        // 'unknown': the count is unusable, which skips the check rather than reporting a false mismatch.
        this.untrackable(this.lastUpper);
    }
  }

  private untrackable(name: string): void {
    if (this.reported.has(name)) return;
    this.reported.add(name);
    this.tracker.untrackable(name);
  }

  private kindOf(buf: Buffer, start: number, end: number): KeyCountEffect {
    const len = end - start;
    const last = this.lastName;
    if (len === this.lastLen) {
      let same = true;
      for (let i = 0; i < len; i++) {
        if (last[i] !== buf[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return this.lastKind;
    }
    let upper = '';
    for (let i = start; i < Math.min(end, start + MAX_NAME); i++) {
      const b = buf[i] as number;
      upper += String.fromCharCode(b >= 97 && b <= 122 ? b - 32 : b);
    }
    const kind = len > MAX_NAME ? 'unknown' : keyCountOf(upper);
    if (len <= MAX_NAME) {
      buf.copy(last, 0, start, end);
      this.lastLen = len;
    } else {
      this.lastLen = -1;
    }
    this.lastKind = kind;
    this.lastUpper = len > MAX_NAME ? `${upper}…` : upper;
    return kind;
  }
}

/** A timeout Redis takes as "in the future": digits, not all zeros (a sign or 0 means delete now). */
function isPositive(buf: Buffer, start: number, end: number): boolean {
  if (start === end) return false;
  let nonzero = false;
  for (let i = start; i < end; i++) {
    const b = buf[i] as number;
    if (b < 48 || b > 57) return false;
    if (b !== 48) nonzero = true;
  }
  return nonzero;
}
