import type { Alert, FailoverEvent, MetricsEvent, NodeSample } from '../../../app/schemas/metrics';
import { foldAlerts, type AlertMap } from './alerts';
import type { TopoNode } from '../../lib/nodes';
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
  /** What the topology event says beyond the nodes: mode, a cluster's state, a sentinel set's sentinels. */
  profile: TopologyFacts;
  /** Failovers seen, oldest first, at most MAX_FAILOVERS. */
  failovers: readonly FailoverEvent[];
}

export type TopologyFacts = Omit<Extract<MetricsEvent, { kind: 'topology' }>, 'kind' | 'nodes' | 'at'>;

/** As many as the server keeps (main/core/metrics/failovers.ts). */
export const MAX_FAILOVERS = 50;

/** By id: the server sends a failover again when Sentinel's word adds the previous master. */
function foldFailovers(list: readonly FailoverEvent[], incoming: readonly FailoverEvent[]): readonly FailoverEvent[] {
  if (incoming.length === 0) return list;
  const byId = new Map(list.map((f) => [f.id, f]));
  for (const f of incoming) byId.set(f.id, f);
  return [...byId.values()].sort((a, b) => a.at - b.at).slice(-MAX_FAILOVERS);
}

export const EMPTY_METRICS: MetricsState = {
  series: new Map(),
  samples: [],
  lastUp: new Map(),
  topology: undefined,
  at: undefined,
  alerts: new Map(),
  profile: {},
  failovers: [],
};

export function reduceMetrics(state: MetricsState, events: readonly MetricsEvent[], b: Bounds): MetricsState {
  let s = state;
  const alerts: Alert[] = [];
  const failovers: FailoverEvent[] = [];
  for (const e of events) {
    switch (e.kind) {
      case 'history':
        s = { ...s, series: mergeHistory(s.series, e.nodes, b) };
        break;
      case 'topology': {
        const { kind: _kind, nodes, at, ...profile } = e;
        s = { ...s, topology: nodes, profile, at: Math.max(s.at ?? at, at) };
        break;
      }
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
      case 'failover':
        failovers.push(e.failover);
        break;
    }
  }
  if (failovers.length > 0) s = { ...s, failovers: foldFailovers(s.failovers, failovers) };
  return alerts.length === 0 ? s : { ...s, alerts: foldAlerts(s.alerts, alerts) };
}
