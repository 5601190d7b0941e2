import type { LoadReport } from '../../../app/schemas/bulk';
import type { AuditFigure } from './auditLog';

/** One audit entry's detail: what the load did, never what it loaded; its numbers as figures. */
export function loadSummary(r: LoadReport): { detail: string; figures: AuditFigure[] } {
  const parts = [`${r.jobId} ${r.file}`, r.swapped ? 'swapped' : 'not swapped'];
  // A crashed load's staging DB flushed before this one began: on the record, with its counts.
  for (const c of r.staleCleaned ?? []) parts.push(`flushed stale staging DB ${c.db} (${c.keys} keys) of load ${c.jobId} from ${c.host}`);
  if (r.error !== undefined) parts.push(`${r.error.code}: ${r.error.message}`);
  // What a swap threw away or left behind is part of what the load did to the server.
  const lw = r.liveWrites;
  if (lw !== undefined)
    parts.push(lw.writes === undefined ? `live DB ${lw.db} writes not counted` : `live DB ${lw.db}: ${lw.writes} writes by others, ${lw.discarded} discarded`);
  // The protections a refused command left out (a managed service, an ACL user), each by its command.
  for (const x of r.restrictions ?? []) parts.push(`not protected (${x.command} missing): ${x.effect}`);
  if (r.stagingLeft !== undefined) parts.push(`staging DB ${r.stagingLeft.db} left with ${r.stagingLeft.keys} keys (${r.stagingLeft.reason})`);
  const figures = [
    { n: r.records, unit: 'records' },
    { n: r.errors, unit: 'errors' },
    { n: r.seconds, unit: 'seconds' },
  ];
  return { detail: parts.join(', '), figures };
}
