import type { NodeHistory, NodeSample } from '../../../app/schemas/metrics';
import { isReplicaRole } from '../../lib/nodes';

/** One poll of one node, as the charts need it; null where the node was down (a gap). */
export interface NodePoint {
  t: number;
  ops: number | null;
  mem: number | null;
  clients: number | null;
  netIn: number | null;
  netOut: number | null;
  /** Replicas only: bytes behind their master. */
  lag: number | null;
  /**
   * Why this point holds no values: the node was down (unreachable) or slow (no answer in
   * time, its connection open), or nothing was recorded from here to the next point.
   */
  gap?: GapCause;
  /** The node answered from a new server run here (run_id changed). */
  restarted?: true;
}

export type GapCause = NonNullable<NonNullable<NodeHistory['gaps']>[number]>;
export type MetricKey = Exclude<keyof NodePoint, 't' | 'gap' | 'restarted'>;

/** Per node, oldest first. A new Map on every change, so React sees it. */
export type SeriesStore = ReadonlyMap<string, readonly NodePoint[]>;

export interface Bounds {
  /** Points older than the newest point minus this are dropped. */
  windowMs: number;
  /** Hard cap per node, whatever the poll interval. */
  maxPoints: number;
}

const at = <T>(a: readonly T[] | undefined, i: number): T | null => a?.[i] ?? null;

/** The columnar history the stream opens with, as points. */
export function pointsFromHistory(h: NodeHistory): NodePoint[] {
  const restarts = new Set(h.restarts);
  return h.at.map((t, i) => {
    const gap = h.gaps?.[i] ?? undefined;
    return {
      ...(restarts.has(t) ? { restarted: true as const } : {}),
      t,
      ops: at(h.opsPerSec, i),
      mem: at(h.usedMemory, i),
      clients: at(h.clients, i),
      netIn: at(h.inputKbps, i),
      netOut: at(h.outputKbps, i),
      lag: at(h.lagBytes, i),
      ...(gap === undefined ? {} : { gap }),
    };
  });
}

/**
 * Bytes behind, per replica address, as each master reports its replicas (INFO
 * replication `slaveN:...`). A replica cannot tell its own lag; its master can.
 */
export function lagByReplica(samples: readonly NodeSample[]): Map<string, number> {
  const lag = new Map<string, number>();
  for (const s of samples) {
    if (!s.up) continue;
    for (const r of s.replication?.replicas ?? []) lag.set(r.address, r.lagBytes);
  }
  return lag;
}

/** One tick's sample as a point at `t`; a node without an answer is all nulls, so the charts show a gap. */
export function pointFromSample(s: NodeSample, t: number, lag: ReadonlyMap<string, number>): NodePoint {
  if (!s.up) return { t, ops: null, mem: null, clients: null, netIn: null, netOut: null, lag: null, gap: s.status === 'slow' ? 'slow' : 'down' };
  const replica = isReplicaRole(s.role ?? s.replication?.role);
  return {
    t,
    ...(s.restarted === true ? { restarted: true as const } : {}),
    ops: s.traffic?.opsPerSec ?? null,
    mem: s.memory?.used ?? null,
    clients: s.clients?.connected ?? null,
    netIn: s.traffic?.inputKbps ?? null,
    netOut: s.traffic?.outputKbps ?? null,
    lag: replica ? (lag.get(s.address) ?? null) : null,
  };
}

/** Drop what is older than `newest - windowMs`, then keep at most `maxPoints`. */
export function trimPoints(points: readonly NodePoint[], newest: number, b: Bounds): readonly NodePoint[] {
  const from = newest - b.windowMs;
  let start = 0;
  while (start < points.length && (points[start]?.t ?? 0) < from) start += 1;
  start = Math.max(start, points.length - b.maxPoints);
  return start > 0 ? points.slice(start) : points;
}

function newestOf(store: SeriesStore): number {
  let newest = -Infinity;
  for (const pts of store.values()) newest = Math.max(newest, pts.at(-1)?.t ?? -Infinity);
  return newest;
}

/** Trim every node against the newest point of any node; nodes left empty are forgotten. */
function trimStore(store: Map<string, readonly NodePoint[]>, b: Bounds): SeriesStore {
  const newest = newestOf(store);
  for (const [address, pts] of store) {
    const kept = trimPoints(pts, newest, b);
    if (kept.length === 0) store.delete(address);
    else if (kept !== pts) store.set(address, kept);
  }
  return store;
}

/** Union of two sorted runs by time; on the same `t` the incoming point wins. */
function mergeSorted(a: readonly NodePoint[], b: readonly NodePoint[]): NodePoint[] {
  const out: NodePoint[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x.t < y.t)) {
      if (x !== undefined) out.push(x);
      i += 1;
    } else if (x === undefined || y.t < x.t) {
      out.push(y);
      j += 1;
    } else {
      out.push(y);
      i += 1;
      j += 1;
    }
  }
  return out;
}

/**
 * Fold the stream's opening history in. It arrives again after every resubscribe,
 * overlapping what was kept, hence a merge by time rather than a replace.
 */
export function mergeHistory(store: SeriesStore, history: readonly NodeHistory[], b: Bounds): SeriesStore {
  const next = new Map(store);
  for (const h of history) {
    const incoming = pointsFromHistory(h).sort((p, q) => p.t - q.t);
    next.set(h.address, mergeSorted(next.get(h.address) ?? [], incoming));
  }
  return trimStore(next, b);
}

/** Append one tick (every node polled at `t`); a tick already seen is ignored. */
export function appendSamples(store: SeriesStore, samples: readonly NodeSample[], t: number, b: Bounds): SeriesStore {
  const next = new Map(store);
  const lag = lagByReplica(samples);
  for (const s of samples) {
    const pts = next.get(s.address) ?? [];
    const last = pts.at(-1);
    if (last !== undefined && t <= last.t) continue;
    next.set(s.address, [...pts, pointFromSample(s, t, lag)]);
  }
  return trimStore(next, b);
}
