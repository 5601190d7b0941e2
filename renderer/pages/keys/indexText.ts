import type { IndexState } from '../../../app/schemas/keys';
import { formatBytes, formatCount, formatDuration, formatSeconds } from '../../lib/format';

/** What the index bar says, in plain words: never a partial tree without saying so. */
export interface IndexWords {
  /** "complete", "incomplete", "scanning", "no tree", "failed". */
  badge: string;
  tone: 'ok' | 'warn' | 'info' | 'err' | 'none';
  /** "412,000 of 1,000,000 scanned · 52,300 keys/s". */
  line: string;
  /** 0..1 while scanning with a known total. */
  fraction: number | undefined;
  memory: string;
  /** Said when the names went over budget. */
  overBudget: string | undefined;
  /** How old the (shared) index is: "built 12m 5s ago". */
  age: string | undefined;
  /** What changed in the DB since the build and is not in the index, from the server. */
  stale: string | undefined;
}

/** `now`: the clock the age is read against (the page re-renders it as the index is re-read). */
export function indexWords(s: IndexState | undefined, now = Date.now()): IndexWords {
  if (s === undefined)
    return {
      badge: '…',
      tone: 'none',
      line: 'Reading the index state…',
      fraction: undefined,
      memory: '',
      overBudget: undefined,
      age: undefined,
      stale: undefined,
    };
  const scanned = formatCount(s.scanned);
  const of = s.total > 0 ? ` of ${formatCount(s.total)}` : '';
  const rate = s.seconds > 0 ? ` · ${formatCount(s.scanned / s.seconds)} keys/s` : '';
  const memory = s.budgetBytes > 0 ? `${formatBytes(s.bytes)} of ${formatBytes(s.budgetBytes)} budget` : formatBytes(s.bytes);
  const overBudget = s.names === 'over-budget' ? 'names over budget: folders list by SCAN' : undefined;
  const age = s.finishedAt === null || s.status === 'building' ? undefined : `built ${formatDuration(Math.max(0, now - s.finishedAt) / 1000)} ago`;
  const base = { memory, overBudget, age, stale: s.stale ?? undefined };
  switch (s.status) {
    case 'none':
      return { ...base, badge: 'no tree', tone: 'none', line: 'No tree for this DB and separator yet.', fraction: undefined, memory: '' };
    case 'building':
      return {
        ...base,
        badge: 'scanning',
        tone: 'info',
        line: `${scanned}${of} scanned${rate}`,
        // DBSIZE moves while the scan runs: never show a full bar before the end.
        fraction: s.total > 0 ? Math.min(0.999, s.scanned / s.total) : undefined,
      };
    case 'failed':
      return { ...base, badge: 'failed', tone: 'err', line: `Failed after ${scanned} keys${s.error === null ? '' : `: ${s.error}`}`, fraction: undefined };
    case 'cancelled':
    case 'ready':
      return s.complete
        ? { ...base, badge: 'complete', tone: 'ok', line: `${scanned} keys, every one scanned in ${formatSeconds(s.seconds)}`, fraction: undefined }
        : {
            ...base,
            badge: 'incomplete',
            tone: 'warn',
            line: `${scanned}${of} scanned${s.status === 'cancelled' ? ' before it was cancelled' : ''}: counts cover only those keys`,
            fraction: undefined,
          };
  }
}
