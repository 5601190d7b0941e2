import type { LoadReport } from '../../../app/schemas/bulk';

/** One line for the audit log: what the load did, never what it loaded. */
export function loadSummary(r: LoadReport): string {
  const parts = [`${r.jobId} ${r.file}`, `${r.records} records`, `${r.errors} errors`, `${r.seconds.toFixed(1)} s`, r.swapped ? 'swapped' : 'not swapped'];
  if (r.error !== undefined) parts.push(`${r.error.code}: ${r.error.message}`);
  return parts.join(', ');
}
