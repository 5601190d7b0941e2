import { formatLatency } from '../../lib/format';
import type { Entry } from './useConsoleRuns';

/**
 * What a screen reader hears when a command ends: one short sentence, never the reply itself
 * (a reply can be 20,000 lines; it is read from the transcript when wanted).
 */
export function entryStatus(entry: Entry | undefined): string {
  if (entry === undefined) return '';
  const s = entry.state;
  switch (s.kind) {
    case 'running':
      return `Running ${entry.line}`;
    case 'held':
      return `${s.result.command} held, not run: type ${s.result.confirmWith} back to run it.`;
    case 'failed':
      return `Not run: ${s.error.message}`;
    case 'cancelled':
      return 'Cancelled.';
    case 'done': {
      const r = s.result.replies;
      const slowest = Math.max(0, ...r.map((x) => x.ms));
      const errors = r.filter((x) => x.reply.t === 'error').length;
      const where = r.length === 1 ? '' : ` on ${r.length} nodes`;
      return `${s.result.command} done${where} in ${formatLatency(slowest)}${errors > 0 ? `, ${errors === 1 && r.length === 1 ? 'an error reply' : `${errors} error replies`}` : ''}.`;
    }
  }
}
