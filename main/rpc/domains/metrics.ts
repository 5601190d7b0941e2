import { roleAllows } from '../../../app/define';
import { restrictionLine } from '../../../app/schemas/restrictions';
import { logsWithoutValues } from '../../core/metrics';
import type { Handlers } from '../handlers';
import { refuseReadOnlyData } from '../../core/pool/readOnlyProfile';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { connectionOf, storedProfile } from './sessionProfile';

type MetricsHandlers = Pick<
  Handlers,
  | 'metrics.watch'
  | 'metrics.alerts'
  | 'metrics.slowlog'
  | 'metrics.action'
  | 'metrics.actions'
  | 'metrics.latencyMonitor'
  | 'metrics.latencyMonitorOn'
  | 'metrics.latencyMonitorOff'
>;

export function metricsHandlers({ metrics, audit, profiles }: Pick<CoreServices, 'metrics' | 'audit' | 'profiles'>): MetricsHandlers {
  return {
    // One poller per connection id serves every watcher; this subscription only listens.
    // Analysts' pollers are their own, polling as the profile's analyst Redis user.
    'metrics.watch': ({ profileId, ...opts }, sink, { session }) => metrics.watch(connectionOf(profiles, profileId, session), opts, (e) => sink.push(e)),
    'metrics.alerts': ({ profileId }, sink, { session }) => metrics.alerts(connectionOf(profiles, profileId, session), (a) => sink.push(a)),
    'metrics.slowlog': async ({ profileId, address, count }, { session }) => {
      const read = await metrics.slowlog(connectionOf(profiles, profileId, session), address, count);
      // Values stay behind the ops role (as MONITOR does): analysts get the command and key only.
      return session.role !== null && roleAllows(session.role, 'ops') ? read : logsWithoutValues(read);
    },
    'metrics.action': async ({ profileId, address, action }, { session }) => {
      const trail = auditFor(audit, session, action, address);
      trail('started');
      try {
        const r = await metrics.runAction(profileId, address, action);
        if ('refused' in r) {
          trail('failed', restrictionLine(r.refused));
          return r;
        }
        // The duration is the row's own (start to end); the file size goes as a number, for the page to write as MiB.
        const figures = r.sizeBytes === undefined ? [] : [{ n: r.sizeBytes, unit: 'bytes' }];
        trail(r.status === 'ok' ? 'ok' : 'failed', `status ${r.status}`, { figures });
        return r;
      } catch (e) {
        trail('failed', e instanceof Error ? e.message : String(e));
        throw e;
      }
    },
    // Read as the session's own Redis user (an analyst's may be refused CONFIG GET); the timer is the profile's.
    'metrics.latencyMonitor': async ({ profileId, address }, { session }) => {
      const readId = connectionOf(profiles, profileId, session);
      return metrics.latency.status(readId, profileId, await metrics.nodeOf(readId, address));
    },
    // CONFIG SET is a write: audited as config.set is, the start before the command is sent.
    'metrics.latencyMonitorOn': async ({ profileId, address, thresholdMs, minutes }, { session }) => {
      refuseReadOnlyData(storedProfile(profiles, profileId), { refused: 'its configuration cannot be changed here', instead: 'turn latency monitoring on' });
      const target = await metrics.nodeOf(profileId, address);
      return audited(auditFor(audit, session, 'metrics.latencyMonitorOn', target), `latency-monitor-threshold ${thresholdMs} for ${minutes} min`, async () => {
        const on = await metrics.latency.turnOn(profileId, target, thresholdMs, minutes);
        return { result: on, detail: `was ${on.previousMs}` };
      });
    },
    'metrics.latencyMonitorOff': ({ profileId }, { session }) =>
      audited(auditFor(audit, session, 'metrics.latencyMonitorOff', profileId), 'put the previous latency-monitor-threshold back', async () => {
        const ended = await metrics.latency.turnOff(profileId);
        return {
          result: ended,
          detail: ended.restored ? `put back to ${ended.previousMs}` : `left at ${ended.foundMs ?? '?'}: changed by someone else meanwhile`,
        };
      }),
    // Ops run the actions on the profile's own connections, so their log is kept under its own id.
    'metrics.actions': async ({ profileId, address }) => {
      const restrictions = await metrics.actionRestrictions(profileId, address);
      return { actions: metrics.actions(profileId), ...(restrictions.length === 0 ? {} : { restrictions }) };
    },
  };
}

/** One audited write: started (before it runs), then ok with its detail, or failed with the error. */
async function audited<T>(trail: ReturnType<typeof auditFor>, what: string, run: () => Promise<{ result: T; detail: string }>): Promise<T> {
  trail('started', what);
  try {
    const { result, detail } = await run();
    trail('ok', detail);
    return result;
  } catch (e) {
    trail('failed', e instanceof Error ? e.message : String(e));
    throw e;
  }
}
