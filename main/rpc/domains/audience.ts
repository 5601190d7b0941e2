import type { ProfileId } from '../../../app/schemas/common';
import { roleAllows } from '../../../app/define';
import type { AudienceLayout } from '../../../app/schemas/audience';
import { audienceAttributes, audienceOn, audienceParse } from '../../core/audience/audienceOn';
import { startAudience, startDemoData } from '../../core/audience/audienceRuns';
import { AudienceQueryRouter } from '../../core/audience/queryRouter';
import type { Jobs } from '../../core/jobKinds';
import type { Handlers } from '../handlers';
import type { Session } from '../session';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { connectionOf, roleOf, sessionProfile, storedProfile } from './sessionProfile';

type AudienceHandlers = Pick<
  Handlers,
  'audience.attributes' | 'audience.parse' | 'audience.query' | 'audience.start' | 'audience.history' | 'audience.demoData'
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
  /** A run's audit trail, under the session's user. */
  const trail = (session: Session) => (action: string, where: string) => auditFor(audit, session, action, where);

  return {
    'audience.attributes': async ({ profileId, db, layout }, { session }) => audienceAttributes(await onServer(profileId, session, layout, db), layout),

    'audience.parse': ({ where, profileId, db, layout }, { session }) =>
      audienceParse(where, layout, profileId === undefined ? undefined : () => onServer(profileId, session, layout, db)),

    'audience.query': async ({ profileId, db, ...query }, { session }) => {
      const { connectionId, profile } = sessionProfile(profiles, profileId, session);
      return router.query(connectionId, profile.spec, db ?? profile.spec.db, query);
    },

    'audience.start': async (input, { session }) =>
      startAudience(jobs.audience, input, () => onServer(input.profileId, session, input.layout, input.db), readsOnly(session), trail(session)),

    'audience.history': ({ profileId }, { session }) => {
      // An ops-only profile's reports are not an analyst's to read: refused by name, left out of the whole list.
      if (profileId !== undefined) connectionOf(profiles, profileId, session);
      return { reports: jobs.audience.history(profileId).filter((r) => !profiles.refuses(r.profileId, roleOf(session))) };
    },

    'audience.demoData': async (input, { session }) => {
      const { spec } = storedProfile(profiles, input.profileId);
      return startDemoData({ pool, demo: jobs.demo }, input, spec, trail(session));
    },
  };
}
