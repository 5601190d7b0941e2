import type { IndexState } from '../../../app/schemas/keys';
import { formatBytes, formatCount, formatDuration, formatSeconds } from '../../lib/format';
import { noun } from '../../lib/plural';

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
  /** How old the (shared) index is: "built 12m 5s ago" (a complete one says it in `line`). */
  age: string | undefined;
  /** The keep rule: "kept between visits · re-scanned on opening after 15m · 4 changes followed". */
  kept: string | undefined;
  /** How the SCAN COUNT stayed under the server's slowlog threshold, and whether that was assumed. */
  scanNote: string | undefined;
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
      kept: undefined,
      scanNote: undefined,
      stale: undefined,
    };
  const scanned = formatCount(s.scanned);
  const of = s.total > 0 ? ` of ${formatCount(s.total)}` : '';
  const rate = s.seconds > 0 ? ` · ${formatCount(s.scanned / s.seconds)} keys/s` : '';
  const memory = s.budgetBytes > 0 ? `${formatBytes(s.bytes)} of ${formatBytes(s.budgetBytes)} budget` : formatBytes(s.bytes);
  const overBudget = s.names === 'over-budget' ? 'names over budget: folders list by SCAN' : undefined;
  const ago = s.finishedAt === null || s.status === 'building' ? undefined : formatDuration(Math.max(0, now - s.finishedAt) / 1000);
  const age = ago === undefined || s.complete ? undefined : `built ${ago} ago`;
  const base = { memory, overBudget, age, kept: keptWords(s), scanNote: scanWords(s), stale: s.stale ?? undefined };
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
      return {
        ...base,
        badge: 'failed',
        tone: 'err',
        line: `Failed after ${scanned} ${noun(s.scanned, 'key')}${s.error === null ? '' : `: ${s.error}`}`,
        fraction: undefined,
      };
    case 'cancelled':
    case 'ready':
      return s.complete
        ? {
            ...base,
            badge: 'complete',
            tone: 'ok',
            line: `indexed ${scanned} ${noun(s.scanned, 'key')}, ${ago ?? '—'} ago (scan ${formatSeconds(s.seconds)})`,
            fraction: undefined,
          }
        : {
            ...base,
            badge: 'incomplete',
            tone: 'warn',
            line: `${scanned}${of} scanned${s.status === 'cancelled' ? ' before it was cancelled' : ''}: counts cover only those keys`,
            fraction: undefined,
          };
  }
}

/** The keep rule in words, once a scan ended: reused between visits, re-scanned on opening past its age, what it followed since. */
function keptWords(s: IndexState): string | undefined {
  if (s.status === 'none' || s.status === 'building' || s.maxAgeMs === undefined) return undefined;
  const rule = s.expired === true ? 'older than' : 're-scanned on opening after';
  const followed = (s.followed ?? 0) > 0 ? ` · ${formatCount(s.followed ?? 0)} key changes followed` : '';
  return `kept between visits · ${rule} ${formatDuration(s.maxAgeMs / 1000)}${s.expired === true ? ': re-scans on next opening' : ''}${followed}`;
}

/** "SCAN COUNT ≤ 400 to stay under slowlog-log-slower-than 2 ms", or the threshold assumed where CONFIG GET was refused. */
function scanWords(s: IndexState): string | undefined {
  const c = s.scanCount;
  if (c === null || c === undefined || c.largestCount === 0) return undefined;
  if (c.slowlogUs === null) return `SCAN COUNT ≤ ${formatCount(c.largestCount)} (slowlog off)`;
  const limit = `${c.slowlogUs / 1000} ms`;
  return `SCAN COUNT ≤ ${formatCount(c.largestCount)}, under slowlog-log-slower-than ${limit}${c.assumed ? ' (assumed: CONFIG GET refused)' : ''}`;
}
