import type { z } from 'zod';
import type { AuditEntry as AuditEntrySchema } from '../../../app/schemas/audit';
import { formatBytes, formatCount, formatSeconds } from '../../lib/format';

export type AuditEntry = z.output<typeof AuditEntrySchema>;
export type Outcome = AuditEntry['outcome'];
export type OutcomeChoice = Outcome | 'all';

/**
 * How each outcome's badge looks: the shared badge colours (green, amber, red, grey).
 * Typed by the contract's enum, so an outcome added there fails to compile here
 * (the schema itself stays out of the bundle: the renderer ships no zod).
 */
export const OUTCOME_BADGE: Record<Outcome, string> = {
  ok: 'badge-ready',
  started: 'badge-connecting',
  failed: 'badge-error',
  cancelled: 'badge-closed',
  refused: 'badge-error',
};

/** The outcomes the filter offers. */
export const OUTCOMES = Object.keys(OUTCOME_BADGE) as Outcome[];

type Figure = NonNullable<AuditEntry['figures']>[number];

/** One number of a detail as people write it: "20.7 MiB", "1,200,000 records", "3.20 s". */
export function figureText(f: Figure): string {
  if (f.unit === 'bytes') return formatBytes(f.n);
  if (f.unit === 'seconds') return formatSeconds(f.n);
  return `${formatCount(f.n)} ${f.unit}`;
}

/** The detail column: the server's words, then its numbers formatted here. */
export function detailText(e: AuditEntry): string {
  return [e.detail, ...(e.figures ?? []).map(figureText)].filter((p) => p !== undefined && p !== '').join(', ');
}

/** The duration column: from a run's start to its end; blank for a single event. */
export function durationText(e: AuditEntry): string {
  return e.durationMs === undefined ? '' : formatSeconds(e.durationMs / 1000);
}

/** What the text filter reads of an entry (as shown), lower-cased. */
function haystack(e: AuditEntry): string {
  return `${atText(e.at)} ${e.user} ${e.action} ${e.target} ${e.outcome} ${detailText(e)}`.toLowerCase();
}

/**
 * The entries a person asked for, in the order given (the server sends newest
 * first): every whitespace-separated word of `text` must occur somewhere in the
 * entry, case-insensitively, and the outcome must match unless it is "all".
 */
export function filterEntries(entries: readonly AuditEntry[], text: string, outcome: OutcomeChoice): AuditEntry[] {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  return entries.filter((e) => {
    if (outcome !== 'all' && e.outcome !== outcome) return false;
    if (words.length === 0) return true;
    const hay = haystack(e);
    return words.every((w) => hay.includes(w));
  });
}

/** How many entries have each outcome, for the filter's labels. */
export function outcomeCounts(entries: readonly AuditEntry[]): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const e of entries) counts[e.outcome] += 1;
  return counts;
}

/**
 * An ISO time as "2025-03-01 14:05:09" in the viewer's time zone: an audit trail is
 * read across days, so the date stays. Text that is not a time is shown as it came.
 */
export function atText(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
