import type { LoadReport } from '../../../app/schemas/bulk';
import type { AuditFigure } from './auditLog';

/** One audit entry's detail: what the load did, never what it loaded; its numbers as figures. */
export function loadSummary(r: LoadReport): { detail: string; figures: AuditFigure[] } {
  const parts = [`${r.jobId} ${r.file}`, r.swapped ? 'swapped' : 'not swapped'];
  // A crashed load's staging DB flushed before this one began: on the record, with its counts.
  for (const c of r.staleCleaned ?? []) parts.push(`flushed stale staging DB ${c.db} (${c.keys} keys) of load ${c.jobId} from ${c.host}`);
  if (r.error !== undefined) parts.push(`${r.error.code}: ${r.error.message}`);
  const figures = [
    { n: r.records, unit: 'records' },
    { n: r.errors, unit: 'errors' },
    { n: r.seconds, unit: 'seconds' },
  ];
  return { detail: parts.join(', '), figures };
}
