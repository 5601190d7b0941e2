import { AppError } from '../../../app/errors';
import type { ProfileSpec } from '../../../app/schemas/connections';
import { isFinalAudienceEvent } from '../../core/audience/audienceJobs';
import { isFinalDemoEvent } from '../../core/audience/demo/demoJobs';
import { loadDemo } from '../../core/audience/demo/loadDemo';
import { describeWhere, unknownTerms } from '../../core/audience/describeWhere';
import { discoverAttributes } from '../../core/audience/discoverAttributes';
import { LayoutKeys } from '../../core/audience/layoutKeys';
import { withLink } from '../../core/audience/openLink';
import { queryAudience } from '../../core/audience/queryAudience';
import { runAudience } from '../../core/audience/runAudience';
import { checkScratchPrefix } from '../../core/audience/scratch';
import { connectionFor } from '../../core/sampling/runSampling';
import type { Handlers } from '../handlers';
import type { Session } from '../session';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { connectionOf } from './sessionProfile';

type AudienceHandlers = Pick<
  Handlers,
  | 'audience.attributes'
  | 'audience.parse'
  | 'audience.query'
  | 'audience.start'
  | 'audience.cancel'
  | 'audience.progress'
  | 'audience.history'
  | 'audience.demoData'
  | 'audience.demoCancel'
  | 'audience.demoProgress'
>;

type Deps = Pick<CoreServices, 'profiles' | 'audience' | 'audit'>;

export function audienceHandlers({ profiles, audience, audit }: Deps): AudienceHandlers {
  /**
   * The connection id and spec a session reaches a profile with: an analyst's carry the
   * profile's analyst Redis user when it has one, so ACL applies to what analysts run.
   */
  const reach = (profileId: string, session: Session): { id: string; spec: ProfileSpec } => {
    const id = connectionOf(profiles, profileId, session);
    const profile = profiles.get(id);
    if (!profile) throw new AppError('NOT_FOUND', `No connection profile with id "${profileId}"`, 'profileId');
    return { id, spec: profile.spec };
  };
  const specOf = (profileId: string, session: Session): ProfileSpec => reach(profileId, session).spec;

  return {
    'audience.attributes': ({ profileId, db, layout }, { session }) => {
      const spec = specOf(profileId, session);
      return withLink(connectionFor(spec, db ?? spec.db, 'cacheboard:audience:attributes'), (link) => discoverAttributes(link, new LayoutKeys(layout)));
    },

    'audience.parse': async ({ where, profileId, db, layout }, { session }) => {
      const { parsed, ...result } = describeWhere(where);
      if (profileId === undefined || parsed === undefined || parsed.length === 0) return result;
      const spec = specOf(profileId, session);
      const unknown = await withLink(connectionFor(spec, db ?? spec.db, 'cacheboard:audience:parse'), (link) => unknownTerms(link, new LayoutKeys(layout), parsed));
      return { ...result, unknown: unknown.map(({ name, value }) => ({ name, value })) };
    },

    'audience.query': ({ profileId, db, ...query }, { session }) => {
      const { id, spec } = reach(profileId, session);
      return audience.queries.use(id, spec, db ?? spec.db, (target) => queryAudience(target, query));
    },

    'audience.start': ({ profileId, db, ...options }, { session }) => {
      const spec = specOf(profileId, session);
      // Refused here, before a job exists, so the builder shows the reason on the field at once.
      const check = describeWhere(options.where);
      if (check.error !== undefined) throw new AppError('VALIDATION', `where: ${check.error.message}`, 'where');
      checkScratchPrefix(new LayoutKeys(options.layout));
      const target = db ?? spec.db;
      // One trial per server: two at once would each time the other's load.
      const server = `${spec.host}:${spec.port}`;
      const holder = audience.jobs.runningOn(server);
      if (holder !== undefined) throw new AppError('CONFLICT', `Audience trial ${holder} is already running on ${server}; wait for it or cancel it`);
      const jobId = audience.jobs.start(server, async (id, emit, signal) =>
        audience.jobs.remember(
          await runAudience({ profileId, reportId: id, options: { ...options, db: target }, ...connectionFor(spec, target, `cacheboard:audience:${id}`) }, emit, signal),
        ),
      );
      return { jobId };
    },

    'audience.cancel': ({ jobId }) => ({ cancelled: audience.jobs.cancel(jobId) }),

    'audience.progress': ({ jobId }, sink) =>
      audience.jobs.subscribe(jobId, (e) => {
        sink.push(e);
        // done, cancelled and failed are the last word: end the stream so the client knows.
        if (isFinalAudienceEvent(e)) queueMicrotask(() => sink.end());
      }),

    'audience.history': ({ profileId }) => ({ reports: audience.jobs.history(profileId) }),

    'audience.demoData': ({ profileId, db, ...options }, { session }) => {
      const profile = profiles.get(profileId);
      if (!profile) throw new AppError('NOT_FOUND', `No connection profile with id "${profileId}"`, 'profileId');
      const { spec } = profile;
      const target = db ?? spec.db;
      const where = `${spec.host}:${spec.port}/${target}`;
      const holder = audience.demo.runningOn(where);
      if (holder !== undefined) throw new AppError('CONFLICT', `Demo data ${holder} is already loading into ${where}`);
      const trail = auditFor(audit, session, 'audience.demoData', where);
      const jobId = audience.demo.start(where, async (id, emit, signal) => {
        trail('started', `${options.users} users × ${options.days} days, seed ${options.seed}`);
        const end = await loadDemo({ options: { ...options, db: target }, ...connectionFor(spec, target, `cacheboard:demo:${id}`) }, emit, signal);
        trail(end.kind === 'done' ? 'ok' : end.kind === 'cancelled' ? 'cancelled' : 'failed', end.kind === 'failed' ? end.error.message : id);
        return end;
      });
      return { jobId };
    },

    'audience.demoCancel': ({ jobId }) => ({ cancelled: audience.demo.cancel(jobId) }),

    'audience.demoProgress': ({ jobId }, sink) =>
      audience.demo.subscribe(jobId, (e) => {
        sink.push(e);
        if (isFinalDemoEvent(e)) queueMicrotask(() => sink.end());
      }),
  };
}
