import type { Handlers } from '../handlers';
import type { CoreServices } from './services';

type MetricsHandlers = Pick<
  Handlers,
  'metrics.watch' | 'metrics.alerts' | 'metrics.slowlog' | 'metrics.action' | 'metrics.actions'
>;

export function metricsHandlers({ metrics }: CoreServices): MetricsHandlers {
  return {
    // One poller per profile serves every watcher; this subscription only listens.
    'metrics.watch': ({ profileId, ...opts }, sink) => metrics.watch(profileId, opts, (e) => sink.push(e)),
    'metrics.alerts': ({ profileId }, sink) => metrics.alerts(profileId, (a) => sink.push(a)),
    'metrics.slowlog': ({ profileId, address, count }) => metrics.slowlog(profileId, address, count),
    'metrics.action': ({ profileId, address, action }) => metrics.runAction(profileId, address, action),
    'metrics.actions': ({ profileId }) => ({ actions: metrics.actions(profileId) }),
  };
}
