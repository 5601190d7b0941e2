import type { ProfileId } from '../../../app/schemas/common';
import { roleAllows } from '../../../app/define';
import { AppError } from '../../../app/errors';
import type { AudienceLayout } from '../../../app/schemas/audience';
import { audienceAttributes, audienceOn, audienceParse, refuseTrialAsk, refuseUnlessReadOnly } from '../../core/audience/audienceOn';
import { demoLayoutFor } from '../../core/audience/audienceServer';
import { loadDemo } from '../../core/audience/demo/loadDemo';
import { AudienceQueryRouter } from '../../core/audience/queryRouter';
import { audienceTrialName, runAudience } from '../../core/audience/runAudience';
import type { Jobs } from '../../core/jobKinds';
import type { Handlers } from '../handlers';
import type { Session } from '../session';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { connectionOf, roleOf, sessionProfile, storedProfile } from './sessionProfile';

type AudienceHandlers = Pick<
  Handlers,
  | 'audience.attributes'
  | 'audience.parse'
  | 'audience.query'
  | 'audience.start'
  | 'audience.history'
  | 'audience.demoData'
>;

/** An analyst's trial never writes to Redis, not even scratch keys (checkReadOnlyTrial). */
const readsOnly = (session: Session): boolean => !roleAllows(roleOf(session), 'ops');

type Deps = Pick<CoreServices, 'profiles' | 'pool' | 'audience' | 'audit'> & { jobs: Pick<Jobs, 'audience' | 'demo'> };

/** Queries, and starting trials and demo loads; their progress streams and cancel calls are every job's (./jobs.ts). */
export function audienceHandlers({ profiles, pool, audience, audit, jobs }: Deps): AudienceHandlers {
  /**
   * The server a session's audience call runs on, reached as the session's connection: an
   * analyst's carries the profile's analyst Redis user when it has one, so ACL applies to what analysts run.
   */
  const onServer = (profileId: ProfileId, session: Session, layout: Pick<AudienceLayout, 'hashTag'>, db: number | undefined) => {
    const { connectionId, profile } = sessionProfile(profiles, profileId, session);
    return audienceOn(pool, connectionId, profile.spec, layout, db);
  };

  const router = new AudienceQueryRouter(pool, audience.queries);

  return {
    'audience.attributes': async ({ profileId, db, layout }, { session }) => audienceAttributes(await onServer(profileId, session, layout, db), layout),

    'audience.parse': ({ where, profileId, db, layout }, { session }) =>
      audienceParse(where, layout, profileId === undefined ? undefined : () => onServer(profileId, session, layout, db)),

    'audience.query': async ({ profileId, db, ...query }, { session }) => {
      const { connectionId, profile } = sessionProfile(profiles, profileId, session);
      return router.query(connectionId, profile.spec, db ?? profile.spec.db, query);
    },

    'audience.start': async ({ profileId, db, ...options }, { session }) => {
      // Refused here, before a job exists, so the builder shows the reason on the field at once.
      refuseTrialAsk(options);
      const on = await onServer(profileId, session, options.layout, db);
      const readOnly = readsOnly(session);
      if (readOnly) await refuseUnlessReadOnly(on, options);
      // One trial per server (the master itself, not a sentinel): two at once would each time the other's load.
      const { address } = on;
      const holder = jobs.audience.runningOn(address);
      if (holder !== undefined) throw new AppError('CONFLICT', `Audience trial ${holder} is already running on ${address}; wait for it or cancel it`);
      // A trial loads the server it times: who ran which one where, and how it ended, is on the record.
      const trail = auditFor(audit, session, 'audience.trial', `${address}/${on.db}`);
      const jobId = jobs.audience.start(address, async (id, emit, signal) => {
        trail('started', `${id}: ${options.where}`);
        const end = await runAudience({ profileId, reportId: id, readOnly, options: { ...options, db: on.db }, ...on.target(audienceTrialName(id)) }, emit, signal);
        trail(end.kind === 'done' ? 'ok' : end.kind === 'cancelled' ? 'cancelled' : 'failed', end.kind === 'failed' ? end.error.message : undefined, {
          figures: end.kind === 'done' ? [{ n: end.report.audienceSize, unit: 'users in the audience' }] : [],
        });
        return jobs.audience.remember(end);
      });
      return { jobId };
    },

    'audience.history': ({ profileId }, { session }) => {
      // An ops-only profile's reports are not an analyst's to read: refused by name, left out of the whole list.
      if (profileId !== undefined) connectionOf(profiles, profileId, session);
      return { reports: jobs.audience.history(profileId).filter((r) => !profiles.refuses(r.profileId, roleOf(session))) };
    },

    'audience.demoData': async ({ profileId, db, ...asked }, { session }) => {
      const { spec } = storedProfile(profiles, profileId);
      const options = { ...asked, layout: demoLayoutFor(spec, asked.layout) };
      const on = await audienceOn(pool, profileId, spec, options.layout, db);
      const where = `${on.address}/${on.db}`;
      const holder = jobs.demo.runningOn(where);
      if (holder !== undefined) throw new AppError('CONFLICT', `Demo data ${holder} is already loading into ${where}`);
      const trail = auditFor(audit, session, 'audience.demoData', where);
      const jobId = jobs.demo.start(where, async (id, emit, signal) => {
        trail('started', `seed ${options.seed}`, { figures: [{ n: options.users, unit: 'users' }, { n: options.days, unit: 'days' }] });
        const end = await loadDemo({ options: { ...options, db: on.db }, ...on.target(`cacheboard:demo:${id}`) }, emit, signal);
        trail(end.kind === 'done' ? 'ok' : end.kind === 'cancelled' ? 'cancelled' : 'failed', end.kind === 'failed' ? end.error.message : id);
        return end;
      });
      return { jobId };
    },
  };
}
