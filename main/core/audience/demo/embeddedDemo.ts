import { AudienceLayout, DemoDataOptions } from '../../../../app/schemas/audience';
import type { ProfileSpec } from '../../../../app/schemas/connections';
import { connectionFor } from '../../resp/rawTarget';
import { loadDemo } from './loadDemo';

/** What `npm start`'s private server gets: small enough to load in about a second. */
export const EMBEDDED_DEMO = { users: 100_000, days: 30 } as const;

/** Where the demo goes, said in every line about it: our own server, never one of the user's. */
const where = (spec: ProfileSpec) => `the private redis-server on ${spec.host}:${spec.port} (started by Cacheboard, not one of your servers)`;

/** The line `serve` prints as the load starts: what it costs is a few seconds and that server's memory. */
export function embeddedDemoStartLine(spec: ProfileSpec): string {
  return `demo Redis: loading the demo audience (${EMBEDDED_DEMO.users.toLocaleString('en-US')} users × ${EMBEDDED_DEMO.days} days) into ${where(spec)}…`;
}

/**
 * Loads the demo audience into the embedded redis-server Cacheboard itself started, so the
 * Audience trials page has data at once. Never called for a server we did not start. Runs
 * in the background; resolves with a line for the log, never rejects.
 */
export async function seedEmbeddedDemo(spec: ProfileSpec, signal: AbortSignal): Promise<string> {
  const { profileId: _p, db: _d, ...options } = DemoDataOptions.parse({ profileId: 'embedded', ...EMBEDDED_DEMO, layout: AudienceLayout.parse({}) });
  const end = await loadDemo({ options: { ...options, db: spec.db }, ...connectionFor(spec, spec.db, 'cacheboard:demo:embedded') }, () => undefined, signal);
  if (end.kind !== 'done') return `demo Redis: demo data not loaded into ${where(spec)} (${end.kind === 'failed' ? end.error.message : 'cancelled'})`;
  const r = end.report;
  // The size is what the load wrote (its own count of keys), not what it was asked for.
  return `demo Redis: loaded ${r.keys.toLocaleString('en-US')} demo keys (${r.users.toLocaleString('en-US')} users × ${r.days} days, ${r.first} to ${r.last}) into ${where(spec)} in ${r.seconds} s`;
}
