import { AudienceLayout, DemoDataOptions } from '../../../../app/schemas/audience';
import type { ProfileSpec } from '../../../../app/schemas/connections';
import { connectionFor } from '../../resp/rawTarget';
import { loadDemo } from './loadDemo';

/** What `npm start`'s private server gets: small enough to load in about a second. */
export const EMBEDDED_DEMO = { users: 100_000, days: 30 } as const;

/**
 * Loads the demo audience into the embedded redis-server Cacheboard itself started, so the
 * Audience trials page has data at once. Never called for a server we did not start. Runs
 * in the background; resolves with a line for the log, never rejects.
 */
export async function seedEmbeddedDemo(spec: ProfileSpec, signal: AbortSignal): Promise<string> {
  const { profileId: _p, db: _d, ...options } = DemoDataOptions.parse({ profileId: 'embedded', ...EMBEDDED_DEMO, layout: AudienceLayout.parse({}) });
  const end = await loadDemo({ options: { ...options, db: spec.db }, ...connectionFor(spec, spec.db, 'cacheboard:demo:embedded') }, () => undefined, signal);
  if (end.kind !== 'done') return `demo data: not loaded into the embedded server (${end.kind === 'failed' ? end.error.message : 'cancelled'})`;
  const r = end.report;
  return `demo data: ${r.users.toLocaleString('en-US')} users × ${r.days} days (${r.first} to ${r.last}) loaded into the embedded server in ${r.seconds} s`;
}
