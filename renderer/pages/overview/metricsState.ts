import type { Alert, MetricsEvent, NodeSample } from '../../../app/schemas/metrics';
import { foldAlerts, type AlertMap } from './alerts';
import type { TopoNode } from './nodes';
import { appendSamples, mergeHistory, type Bounds, type SeriesStore } from './timeSeries';

/** Everything the page knows about one profile's nodes, folded from `metrics.watch` and `metrics.alerts`. */
export interface MetricsState {
  series: SeriesStore;
  /** The latest tick, every node the server polls. */
  samples: readonly NodeSample[];
  /** Each node's last sample while up: a down node still shows its version and keys, marked stale. */
  lastUp: ReadonlyMap<string, NodeSample>;
  topology: readonly TopoNode[] | undefined;
  /** Server time of the latest tick; durations on the page count from it, not the local clock. */
  at: number | undefined;
  alerts: AlertMap;
}

export const EMPTY_METRICS: MetricsState = {
  series: new Map(),
  samples: [],
  lastUp: new Map(),
  topology: undefined,
  at: undefined,
  alerts: new Map(),
};

export function reduceMetrics(state: MetricsState, events: readonly MetricsEvent[], b: Bounds): MetricsState {
  let s = state;
  const alerts: Alert[] = [];
  for (const e of events) {
    switch (e.kind) {
      case 'history':
        s = { ...s, series: mergeHistory(s.series, e.nodes, b) };
        break;
      case 'topology':
        s = { ...s, topology: e.nodes, at: Math.max(s.at ?? e.at, e.at) };
        break;
      case 'samples': {
        // A tick older than one already seen (a replay after resubscribing) only feeds the series.
        const stale = s.at !== undefined && e.at < s.at;
        // Rebuilt from this tick's nodes, so a node the server stopped polling is forgotten.
        const lastUp = new Map<string, NodeSample>();
        for (const x of e.samples) {
          const keep = x.up ? x : s.lastUp.get(x.address);
          if (keep !== undefined) lastUp.set(x.address, keep);
        }
        s = {
          ...s,
          series: appendSamples(s.series, e.samples, e.at, b),
          samples: stale ? s.samples : e.samples,
          lastUp: stale ? s.lastUp : lastUp,
          at: stale ? s.at : e.at,
        };
        break;
      }
      case 'alert':
        alerts.push(e.alert);
        break;
    }
  }
  return alerts.length === 0 ? s : { ...s, alerts: foldAlerts(s.alerts, alerts) };
}
