import type { LoadReport } from '../../../app/schemas/bulk';

/** One line for the audit log: what the load did, never what it loaded. */
export function loadSummary(r: LoadReport): string {
  const parts = [`${r.jobId} ${r.file}`, `${r.records} records`, `${r.errors} errors`, `${r.seconds.toFixed(1)} s`, r.swapped ? 'swapped' : 'not swapped'];
  // A crashed load's staging DB flushed before this one began: on the record, with its counts.
  for (const c of r.staleCleaned ?? []) parts.push(`flushed stale staging DB ${c.db} (${c.keys} keys) of load ${c.jobId} from ${c.host}`);
  if (r.error !== undefined) parts.push(`${r.error.code}: ${r.error.message}`);
  return parts.join(', ');
}
