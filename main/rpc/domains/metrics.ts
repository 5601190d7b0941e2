import type { Handlers } from '../handlers';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';

type MetricsHandlers = Pick<
  Handlers,
  'metrics.watch' | 'metrics.alerts' | 'metrics.slowlog' | 'metrics.action' | 'metrics.actions'
>;

export function metricsHandlers({ metrics, audit }: CoreServices): MetricsHandlers {
  return {
    // One poller per profile serves every watcher; this subscription only listens.
    'metrics.watch': ({ profileId, ...opts }, sink) => metrics.watch(profileId, opts, (e) => sink.push(e)),
    'metrics.alerts': ({ profileId }, sink) => metrics.alerts(profileId, (a) => sink.push(a)),
    'metrics.slowlog': ({ profileId, address, count }) => metrics.slowlog(profileId, address, count),
    'metrics.action': async ({ profileId, address, action }, { session }) => {
      const trail = auditFor(audit, session, action, address);
      trail('started');
      try {
        const r = await metrics.runAction(profileId, address, action);
        const size = r.sizeBytes === undefined ? '' : `, ${r.sizeBytes} bytes`;
        trail(r.status === 'ok' ? 'ok' : 'failed', `${r.seconds.toFixed(1)} s, status ${r.status}${size}`);
        return r;
      } catch (e) {
        trail('failed', e instanceof Error ? e.message : String(e));
        throw e;
      }
    },
    'metrics.actions': ({ profileId }) => ({ actions: metrics.actions(profileId) }),
  };
}
