import { roleAllows } from '../../../app/define';
import { AppError } from '../../../app/errors';
import { formatHostPort } from '../../../app/hostPort';
import type { AudienceLayout } from '../../../app/schemas/audience';
import type { ProfileSpec } from '../../../app/schemas/connections';
import { audienceServer, demoLayoutFor } from '../../core/audience/audienceServer';
import { loadDemo } from '../../core/audience/demo/loadDemo';
import { describeWhere, unknownTerms } from '../../core/audience/describeWhere';
import { discoverAttributes } from '../../core/audience/discoverAttributes';
import { LayoutKeys } from '../../core/audience/layoutKeys';
import { withLink } from '../../core/audience/openLink';
import { AudienceQueryRouter } from '../../core/audience/queryRouter';
import { audienceTrialName, runAudience } from '../../core/audience/runAudience';
import { checkReadOnlyTrial } from '../../core/audience/readOnlyTrial';
import { checkScratchPrefix } from '../../core/audience/scratch';
import { connectionFor } from '../../core/resp/rawTarget';
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
   * The connection id and spec a session reaches a profile with: an analyst's carry the
   * profile's analyst Redis user when it has one, so ACL applies to what analysts run.
   */
  const reach = (profileId: string, session: Session): { id: string; spec: ProfileSpec } => {
    const { id, profile } = sessionProfile(profiles, profileId, session);
    return { id, spec: profile.spec };
  };
  /**
   * The one server a session's audience call runs on: a cluster's master serving the
   * layout's hash tag, a sentinel profile's current master, or the server itself.
   */
  const serverOf = (profileId: string, session: Session, layout: Pick<AudienceLayout, 'hashTag'>, db: number | undefined) => {
    const { id, spec } = reach(profileId, session);
    const target = db ?? spec.db;
    return audienceServer(pool, id, spec, layout, target).then((server) => ({ server, target }));
  };

  const router = new AudienceQueryRouter(pool, audience.queries);

  return {
    'audience.attributes': async ({ profileId, db, layout }, { session }) => {
      const { server, target } = await serverOf(profileId, session, layout, db);
      return withLink(connectionFor(server, target, 'cacheboard:audience:attributes'), (link) => discoverAttributes(link, new LayoutKeys(layout)));
    },

    'audience.parse': async ({ where, profileId, db, layout }, { session }) => {
      const { parsed, ...result } = describeWhere(where);
      if (profileId === undefined || parsed === undefined || parsed.length === 0) return result;
      const { server, target } = await serverOf(profileId, session, layout, db);
      const unknown = await withLink(connectionFor(server, target, 'cacheboard:audience:parse'), (link) => unknownTerms(link, new LayoutKeys(layout), parsed));
      return { ...result, unknown: unknown.map(({ name, value }) => ({ name, value })) };
    },

    'audience.query': async ({ profileId, db, ...query }, { session }) => {
      const { id, spec } = reach(profileId, session);
      return router.query(id, spec, db ?? spec.db, query);
    },

    'audience.start': async ({ profileId, db, ...options }, { session }) => {
      // Refused here, before a job exists, so the builder shows the reason on the field at once.
      const check = describeWhere(options.where);
      if (check.error !== undefined) throw new AppError('VALIDATION', `where: ${check.error.message}`, 'where');
      checkScratchPrefix(new LayoutKeys(options.layout));
      const { server, target } = await serverOf(profileId, session, options.layout, db);
      // An analyst's trial only reads: decided here, before any job or write, with the reason.
      const readOnly = readsOnly(session);
      if (readOnly) await withLink(connectionFor(server, target, 'cacheboard:audience:check'), (link) => checkReadOnlyTrial(link, options));
      // One trial per server (the master itself, not a sentinel): two at once would each time the other's load.
      const address = formatHostPort(server);
      const holder = jobs.audience.runningOn(address);
      if (holder !== undefined) throw new AppError('CONFLICT', `Audience trial ${holder} is already running on ${address}; wait for it or cancel it`);
      // A trial loads the server it times: who ran which one where, and how it ended, is on the record.
      const trail = auditFor(audit, session, 'audience.trial', `${address}/${target}`);
      const jobId = jobs.audience.start(address, async (id, emit, signal) => {
        trail('started', `${id}: ${options.where}`);
        const end = await runAudience({ profileId, reportId: id, readOnly, options: { ...options, db: target }, ...connectionFor(server, target, audienceTrialName(id)) }, emit, signal);
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
      const profile = storedProfile(profiles, profileId);
      const { spec } = profile;
      const options = { ...asked, layout: demoLayoutFor(spec, asked.layout) };
      const target = db ?? spec.db;
      const server = await audienceServer(pool, profileId, spec, options.layout, target);
      const where = `${formatHostPort(server)}/${target}`;
      const holder = jobs.demo.runningOn(where);
      if (holder !== undefined) throw new AppError('CONFLICT', `Demo data ${holder} is already loading into ${where}`);
      const trail = auditFor(audit, session, 'audience.demoData', where);
      const jobId = jobs.demo.start(where, async (id, emit, signal) => {
        trail('started', `seed ${options.seed}`, { figures: [{ n: options.users, unit: 'users' }, { n: options.days, unit: 'days' }] });
        const end = await loadDemo({ options: { ...options, db: target }, ...connectionFor(server, target, `cacheboard:demo:${id}`) }, emit, signal);
        trail(end.kind === 'done' ? 'ok' : end.kind === 'cancelled' ? 'cancelled' : 'failed', end.kind === 'failed' ? end.error.message : id);
        return end;
      });
      return { jobId };
    },
  };
}
