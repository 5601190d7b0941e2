import { Redis } from 'ioredis';
import { specFor } from '../../../testing/profiles';
import type { RedisProcess } from '../../../testing/redis';
import { openRawConnection } from '../resp/rawConnection';
import type { LinesBatch, MonitorTarget, NodeStats, Viewer } from './monitorHub';

const controls: Redis[] = [];

/** What the runtime builds from the pool: a raw named MONITOR socket and a named CLIENT LIST connection. */
export function targetFor(s: RedisProcess): MonitorTarget {
  const control = new Redis({ host: s.host, port: s.port, connectionName: 'cacheboard:monitoring:t', lazyConnect: true, maxRetriesPerRequest: 1 });
  control.on('error', () => undefined);
  controls.push(control);
  return {
    address: `${s.host}:${s.port}`,
    open: () => openRawConnection(specFor(s), 0, { name: 'cacheboard:monitor:t', connectTimeoutMs: 1000 }),
    clientList: () => control.client('LIST') as Promise<string>,
  };
}

/** Disconnect the CLIENT LIST connections `targetFor` made. */
export function closeTargets(): void {
  for (const c of controls.splice(0)) c.disconnect();
}

export interface Recorded {
  viewer: Viewer;
  batches: LinesBatch[];
  stats: NodeStats[];
  gaps: { from: number; to: number; reason: string }[];
  states: string[];
  ended: { err?: unknown; message?: string }[];
  lines(): LinesBatch['lines'];
  last(): LinesBatch | undefined;
}

/** A viewer that keeps everything it is told; `congested` stands for its transport. */
export function recorder(congested: () => boolean = () => false): Recorded {
  const r: Recorded = {
    batches: [],
    stats: [],
    gaps: [],
    states: [],
    ended: [],
    lines: () => r.batches.flatMap((b) => b.lines),
    last: () => r.batches.at(-1),
    viewer: {
      lines: (b) => r.batches.push(b),
      stats: (s) => r.stats.push(s),
      state: (s) => r.states.push(s),
      gap: (from, to, reason) => r.gaps.push({ from, to, reason }),
      end: (err, message) => r.ended.push({ err, message }),
      congested,
    },
  };
  return r;
}
