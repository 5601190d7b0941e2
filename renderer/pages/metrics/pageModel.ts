import type { NodeSample } from '../../../app/schemas/metrics';
import { alertsByNode, groupAlerts, type AlertGroups } from './alerts';
import type { MetricsState } from './metricsState';
import type { CardModel } from './NodeCards';
import { colorAt, isReplicaRole, orderNodes, pickDefaultNode, sameAddress, topologyOf, type TopoNode } from '../../lib/nodes';
import { nodeStatus } from './nodeStatus';
import { replicaLink } from './replication';
import type { NodePoint } from './timeSeries';

export interface PageModel {
  topology: TopoNode[];
  /** Every node, master first then its replicas depth-first. */
  order: string[];
  colors: Map<string, string>;
  samples: Map<string, NodeSample>;
  cards: CardModel[];
  alerts: AlertGroups;
  /** The profile's own node as the server names it, when it is among the polled ones. */
  own: string | undefined;
  /** The profile's own node when polled, else the master: what the page shows first. */
  defaultNode: string | undefined;
  /** The node whose details show: the user's pick while it exists, else the default. */
  selected: string | undefined;
  /** Nodes whose last poll found them unreachable (refused, lost), and those only slow to answer. */
  unreachableCount: number;
  slowCount: number;
}

/** When the node last answered from a new server run, within the charts' window. */
function lastRestart(points: readonly NodePoint[] | undefined): number | undefined {
  for (let i = (points?.length ?? 0) - 1; i >= 0; i--) if (points?.[i]?.restarted === true) return points[i]?.t;
  return undefined;
}

/** Everything the page draws, derived from the folded stream and the user's node pick. */
export function pageModel(state: MetricsState, ownAddress: string, picked: string | undefined): PageModel {
  const topology = topologyOf(state.topology, state.samples, state.lastUp);
  const order = orderNodes(topology);
  const colors = new Map(order.map((a, i) => [a, colorAt(i)]));
  const samples = new Map(state.samples.map((s) => [s.address, s]));
  const topoBy = new Map(topology.map((n) => [n.address, n]));
  const alerts = groupAlerts(state.alerts);
  const perNode = alertsByNode(alerts.active);
  const own = state.samples.find((s) => sameAddress(s.address, ownAddress))?.address;
  const cards = order.map((address): CardModel => {
    const sample = samples.get(address);
    const node = topoBy.get(address);
    const lastUp = state.lastUp.get(address);
    const role = (sample?.up ? sample.role : undefined) ?? node?.role ?? lastUp?.role ?? 'unknown';
    const link = isReplicaRole(role) ? replicaLink(address, node?.master, state.samples) : undefined;
    const downFor = sample?.up === false && lastUp !== undefined && state.at !== undefined ? Math.max(0, (state.at - lastUp.at) / 1000) : undefined;
    const restartAt = lastRestart(state.series.get(address));
    return {
      address,
      color: colors.get(address) ?? colorAt(0),
      sample,
      lastUp,
      role,
      link,
      alerts: perNode.get(address),
      own: address === own,
      downForSeconds: downFor,
      status: sample === undefined ? undefined : nodeStatus(sample),
      restartedSecondsAgo: restartAt === undefined || state.at === undefined ? undefined : Math.max(0, (state.at - restartAt) / 1000),
    };
  });
  const defaultNode = pickDefaultNode(state.samples, ownAddress);
  const selected = picked !== undefined && order.includes(picked) ? picked : defaultNode;
  return {
    topology,
    order,
    colors,
    samples,
    cards,
    alerts,
    own,
    defaultNode,
    selected,
    unreachableCount: state.samples.filter((s) => nodeStatus(s) === 'unreachable').length,
    slowCount: state.samples.filter((s) => nodeStatus(s) === 'slow').length,
  };
}
