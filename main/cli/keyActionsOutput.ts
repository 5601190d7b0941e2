import type { KeyActionOp, KeyActionReport } from '../../app/schemas/keyActions';
import { countsText, matchText } from '../core/keys/actions/describeRun';
import type { KeySelection } from '../../app/schemas/keyActions';

/** The field --json names the acted count under, per action. */
const VERB: Record<KeyActionOp, string> = { delete: 'deleted', expire: 'expired', persist: 'persisted', export: 'exported' };

export type Ending = { kind: 'done' | 'cancelled' } | { kind: 'failed'; error: { code: string; message: string } };

/**
 * --json's one object: {"action","matched","acted","skipped","errors","seconds"} and the action's
 * own count ("deleted", "expired", "persisted", or "exported" with "file"); then the run id, the
 * dry-run preview, "exact" and "short_by_at_most" (after a part of the run died mid-page, matched and
 * acted are lower bounds, short by at most that many keys), per-shard counts, notes, and on a cut
 * run "resume" (its id) and the error.
 */
export function reportJson(r: KeyActionReport, end: Ending): Record<string, unknown> {
  const out: Record<string, unknown> = {
    action: r.op,
    matched: r.matched,
    acted: r.acted,
    skipped: r.skipped,
    errors: r.errors,
    seconds: r.seconds,
    [VERB[r.op]]: r.acted,
  };
  if (r.op === 'export') out.file = r.file;
  out.dry_run = r.dryRun;
  out.run_id = r.runId;
  out.complete = end.kind === 'done';
  if (r.dryRun) {
    out.samples = r.samples.map((s) => s.text);
    out.memory = r.memory;
  }
  // Lower bounds after a part of the run died mid-page: by how many keys at most (notes say why).
  out.exact = (r.short ?? 0) === 0;
  out.short_by_at_most = r.short ?? 0;
  out.shards = r.shards.map((s) => ({ node: s.node, matched: s.matched, acted: s.acted, skipped: s.skipped, errors: s.errors, done: s.done }));
  out.notes = r.notes;
  out.error_samples = r.errorSamples;
  if (end.kind !== 'done' && !r.dryRun) out.resume = r.runId;
  if (end.kind === 'failed') out.error = end.error;
  return out;
}

/** The report for people: what was done, per master on a cluster, a dry run's names and memory, and how to resume a cut run. */
export function reportText(r: KeyActionReport, end: Ending, selection: KeySelection, where: string): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines: string[] = [];
  const glob = `"${matchText(selection)}" on ${where}`;
  if (r.dryRun) {
    lines.push(`Dry run: ${n(r.matched)} keys match ${glob}${end.kind === 'done' ? '' : ' so far (stopped before the end)'}, ${r.seconds} s`);
    if (r.memory !== null)
      lines.push(`  memory: ~${bytes(r.memory.bytes)} (95%: ${bytes(r.memory.low)} to ${bytes(r.memory.high)}, from ${r.memory.sampled} keys)`);
  } else {
    lines.push(`${VERB[r.op].replace(/^./, (c) => c.toUpperCase())} ${n(r.acted)} of ${n(r.matched)} matched keys (${glob}): ${countsText(r)}`);
  }
  if ((r.short ?? 0) > 0) lines.push(`  matched and acted are lower bounds: short by at most ${n(r.short ?? 0)} keys (see the note)`);
  if (r.shards.length > 1)
    for (const s of r.shards) lines.push(`  ${s.node}: matched ${n(s.matched)}, acted ${n(s.acted)}, skipped ${n(s.skipped)}, errors ${n(s.errors)}`);
  if (r.file !== null && end.kind === 'done') lines.push(`  written to ${r.file}`);
  for (const note of r.notes) lines.push(`  note: ${note}`);
  for (const e of r.errorSamples) lines.push(`  error: ${e}`);
  if (r.dryRun && r.samples.length > 0) {
    lines.push(`  e.g.:`);
    for (const s of r.samples) lines.push(`    ${s.text}`);
  }
  if (end.kind === 'cancelled' && !r.dryRun) lines.push(`Stopped. Resume with the same command and --resume ${r.runId}`);
  if (end.kind === 'failed' && !r.dryRun) lines.push(`The run was cut. Resume with the same command and --resume ${r.runId}`);
  return `${lines.join('\n')}\n`;
}

function bytes(b: number): string {
  if (b >= 1024 ** 3) return `${(b / 1024 ** 3).toFixed(2)} GB`;
  if (b >= 1024 ** 2) return `${(b / 1024 ** 2).toFixed(1)} MB`;
  if (b >= 1024) return `${(b / 1024).toFixed(1)} KB`;
  return `${b} B`;
}
