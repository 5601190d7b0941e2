import type { CallArgs, CallOutput } from '../../../app/contract';
import { AppError } from '../../../app/errors';
import type { AuditFigure } from '../audit';
import type { PoolApi, ProfileSpec } from '../pool/types';
import type { AudienceJobs } from './audienceJobs';
import { audienceOn, refuseTrialAsk, refuseUnlessReadOnly, type AudienceOn } from './audienceOn';
import { demoLayoutFor } from './audienceServer';
import type { DemoJobs } from './demo/demoJobs';
import { loadDemo } from './demo/loadDemo';
import { audienceTrialName, runAudience } from './runAudience';

/** One run's audit entries: 'started' once its job runs, then its outcome, with the numbers the page formats. */
export type AudienceTrail = (outcome: 'started' | 'ok' | 'failed' | 'cancelled', detail?: string, extra?: { figures?: AuditFigure[] }) => void;

/** Opens a run's audit trail: the action on `where` (the server and DB it loads). */
export type OpenAudienceTrail = (action: string, where: string) => AudienceTrail;

const outcomeOf = (kind: 'done' | 'cancelled' | 'failed'): 'ok' | 'cancelled' | 'failed' => (kind === 'done' ? 'ok' : kind);

/**
 * Starts the audience trial `ask` describes as a job; its job id. `reach` finds the server (as the
 * asker's connection); `readOnly` is an analyst's trial, which never writes, not even scratch keys.
 */
export async function startAudience(
  jobs: AudienceJobs,
  { profileId, db: _db, ...options }: CallArgs<'audience.start'>,
  reach: () => Promise<AudienceOn>,
  readOnly: boolean,
  openTrail: OpenAudienceTrail,
): Promise<CallOutput<'audience.start'>> {
  // Refused before a job exists, so the builder shows the reason on the field at once.
  refuseTrialAsk(options);
  const on = await reach();
  if (readOnly) await refuseUnlessReadOnly(on, options);
  // One trial per server (the master itself, not a sentinel): two at once would each time the other's load.
  const { address } = on;
  const holder = jobs.runningOn(address);
  if (holder !== undefined) throw new AppError('CONFLICT', `Audience trial ${holder} is already running on ${address}; wait for it or cancel it`);
  // A trial loads the server it times: who ran which one where, and how it ended, is on the record.
  const trail = openTrail('audience.trial', `${address}/${on.db}`);
  const jobId = jobs.start(address, async (id, emit, signal) => {
    trail('started', `${id}: ${options.where}`);
    const end = await runAudience({ profileId, reportId: id, readOnly, options: { ...options, db: on.db }, ...on.target(audienceTrialName(id)) }, emit, signal);
    trail(outcomeOf(end.kind), end.kind === 'failed' ? end.error.message : undefined, {
      figures: end.kind === 'done' ? [{ n: end.report.audienceSize, unit: 'users in the audience' }] : [],
    });
    return jobs.remember(end);
  });
  return { jobId };
}

/** Starts loading demo data into the profile's server as a job (one load per server and DB); its job id. */
export async function startDemoData(
  { pool, demo }: { pool: PoolApi; demo: DemoJobs },
  { profileId, db, ...asked }: CallArgs<'audience.demoData'>,
  spec: ProfileSpec,
  openTrail: OpenAudienceTrail,
): Promise<CallOutput<'audience.demoData'>> {
  const options = { ...asked, layout: demoLayoutFor(spec, asked.layout) };
  const on = await audienceOn(pool, profileId, spec, options.layout, db);
  const where = `${on.address}/${on.db}`;
  const holder = demo.runningOn(where);
  if (holder !== undefined) throw new AppError('CONFLICT', `Demo data ${holder} is already loading into ${where}`);
  const trail = openTrail('audience.demoData', where);
  const jobId = demo.start(where, async (id, emit, signal) => {
    trail('started', `seed ${options.seed}`, {
      figures: [
        { n: options.users, unit: 'users' },
        { n: options.days, unit: 'days' },
      ],
    });
    const end = await loadDemo({ options: { ...options, db: on.db }, ...on.target(`cacheboard:demo:${id}`) }, emit, signal);
    trail(outcomeOf(end.kind), end.kind === 'failed' ? end.error.message : id);
    return end;
  });
  return { jobId };
}
