import type { KeyActionCounts, KeySelection } from '../../../../app/schemas/keyActions';
import { keyName } from '../../text/keyText';
import type { RunAction } from './actionPlan';

/** The glob as people read it (escaped, always text). */
export function matchText(selection: KeySelection): string {
  return keyName(Buffer.from(selection.match, 'base64')).text;
}

/** `*` (or `**`…) with no filter: every key of the DB, which a real run only acts on with the DB typed back. */
export function wholeDb(selection: KeySelection): boolean {
  const filtered = selection.type !== undefined || selection.ttl !== 'any' || selection.idleMinSeconds !== undefined || selection.minMemoryBytes !== undefined;
  return !filtered && /^\*+$/.test(Buffer.from(selection.match, 'base64').toString('latin1'));
}

/** The selection's filters in words ("type hash, TTL below 60 s"), '' when none. */
export function filtersText(s: KeySelection): string {
  const parts: string[] = [];
  if (s.type !== undefined) parts.push(`type ${s.type}`);
  if (s.ttl === 'none') parts.push('no TTL');
  if (s.ttl === 'below' || s.ttl === 'above') parts.push(`TTL ${s.ttl} ${s.ttlSeconds ?? 0} s`);
  if (s.idleMinSeconds !== undefined) parts.push(`idle ≥ ${s.idleMinSeconds} s`);
  if (s.minMemoryBytes !== undefined) parts.push(`memory ≥ ${s.minMemoryBytes} B`);
  return parts.join(', ');
}

/** The action in words ("expire 3600 s ±10%, only keys without a TTL"). */
export function actionText(a: RunAction): string {
  if (a.op !== 'expire') return a.op;
  return `expire ${a.seconds} s${a.jitterPct > 0 ? ` ±${a.jitterPct}%` : ''}${a.onlyNoTtl ? ', only keys without a TTL' : ''}`;
}

/** What an audit entry keeps of a run: pattern, filters, action (no values, no secrets). */
export function runText(selection: KeySelection, action: RunAction): string {
  const filters = filtersText(selection);
  return `pattern "${matchText(selection)}"${filters === '' ? '' : ` (${filters})`}: ${actionText(action)}`;
}

export function countsText(c: Pick<KeyActionCounts, 'matched' | 'acted' | 'skipped' | 'errors' | 'seconds'>): string {
  return `matched ${c.matched}, acted ${c.acted}, skipped ${c.skipped}, errors ${c.errors}, ${c.seconds} s`;
}
