import type { KeyActionReport } from '../../../../app/schemas/keyActions';
import { formatBytes, formatCount, formatDuration, formatSeconds } from '../../../lib/format';
import { plural } from '../../../lib/plural';
import type { JobOutcome } from '../../../lib/jobView';
import type { ActionForm, ActionTarget, PageOp } from './actionForm';
import type { ActionProgress } from './actionView';

/** How the dialog names each action: the button, the command it sends, and what a changed key became. */
export const OP_WORDS: Record<PageOp, { button: string; title: string; command: string; past: string; stat: string }> = {
  delete: { button: 'Delete…', title: 'Delete keys', command: 'UNLINK', past: 'deleted', stat: 'Deleted' },
  expire: { button: 'Set TTL…', title: 'Set a TTL on keys', command: 'EXPIRE', past: 'given a TTL', stat: 'Expiring' },
  persist: { button: 'Persist…', title: 'Remove the TTL of keys', command: 'PERSIST', past: 'persisted', stat: 'Persisted' },
};

/** The selection in one line: the glob, then each filter that narrows it. */
export function selectionText(form: ActionForm, target: ActionTarget): string {
  const parts = [target.match];
  if (form.type !== '') parts.push(`type ${form.type}`);
  if (form.ttl === 'none') parts.push('no TTL');
  else if (form.ttl !== 'any') parts.push(`TTL ${form.ttl === 'below' ? '<' : '>'} ${secondsText(form.ttlSeconds)}`);
  if (form.idleMin.trim() !== '') parts.push(`idle ≥ ${secondsText(form.idleMin)}`);
  if (form.minMemory.trim() !== '') parts.push(`memory ≥ ${bytesText(form.minMemory)}`);
  return parts.join(' · ');
}

/** Typed seconds as a duration when they are a number ("3600" → "1h"), as typed otherwise. */
export function secondsText(raw: string): string {
  const s = raw.trim();
  return /^\d+$/.test(s) ? (Number(s) < 60 ? `${s}s` : formatDuration(Number(s))) : s;
}

/** Typed bytes in binary units when they are a number ("4096" → "4.00 KiB"). */
export function bytesText(raw: string): string {
  const s = raw.trim();
  return /^\d+$/.test(s) ? formatBytes(Number(s)) : s;
}

/** The command the action sends for each matched key: "UNLINK", "EXPIRE 3600 NX, spread ±10 %". */
export function commandText(form: ActionForm): string {
  if (form.op !== 'expire') return OP_WORDS[form.op].command;
  const nx = form.onlyNoTtl ? ' NX' : '';
  const jitter = form.jitter.trim() === '' || Number(form.jitter) === 0 ? '' : `, spread ±${form.jitter.trim()} %`;
  return `EXPIRE ${form.seconds.trim()}${nx}${jitter}`;
}

/** Why a run waits, plainly, with the server's detail (untrusted text, rendered as text). */
export function pausedText(paused: ActionProgress['paused'] | undefined): string | undefined {
  if (paused === null || paused === undefined) return undefined;
  const why = paused.reason === 'latency' ? 'the server’s latency is over the budget' : 'a replica is lagging behind its master';
  return `Paused: ${why} (${paused.detail})`;
}

/** The report's one-line verdict (its state pill says how it ended): what was done, or exactly how far a cut run got. */
export function reportHeadline(r: KeyActionReport, outcome: JobOutcome, op: PageOp): string {
  const done = `${plural(r.acted, 'key')} ${OP_WORDS[op].past}`;
  const rest = `${formatCount(r.matched)} matched, ${formatCount(r.skipped)} skipped, ${plural(r.errors, 'error')}`;
  if (outcome === 'done') return `${capitalised(done)} in ${formatSeconds(r.seconds)}: ${rest}.`;
  const scanned = `${formatCount(r.scanned)} of ${plural(r.total, 'key')} scanned`;
  const when = outcome === 'cancelled' ? 'Stopped' : 'Failed';
  return `${when} after ${formatSeconds(r.seconds)}, with exactly ${done}: ${rest}; ${scanned}.`;
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
