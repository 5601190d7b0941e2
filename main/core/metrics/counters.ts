import { infoNumber } from '../info/infoSnapshot';
import { parseInfoPairs, type InfoSections } from '../info/parseInfo';

/**
 * The cumulative INFO counters of one poll, kept to turn the next poll's
 * counters into per-second rates. Redis resets them on restart and on CONFIG
 * RESETSTAT, so a rate is only taken against the same run_id and when the
 * counter did not go down.
 */
export interface NodeCounters {
  /** Poll time (ms), used when the server does not report its own clock. */
  at: number;
  /** INFO server_time_usec (Redis 7+): the server's clock, free of our polling jitter. */
  serverTimeUs: number | undefined;
  runId: string;
  totalCommands: number;
  netInputBytes: number;
  netOutputBytes: number;
  keyspaceHits: number;
  keyspaceMisses: number;
  evictedKeys: number;
  expiredKeys: number;
  rejectedConnections: number;
  /** cmdstat_<name> calls=, by command name ("get", "config|set"). */
  commandCalls: Map<string, number>;
}

export function commandStatsOf(sections: InfoSections): Map<string, { calls: number; usecPerCall: number }> {
  const out = new Map<string, { calls: number; usecPerCall: number }>();
  for (const [field, value] of Object.entries(sections['commandstats'] ?? {})) {
    if (!field.startsWith('cmdstat_')) continue;
    const p = parseInfoPairs(value);
    out.set(field.slice('cmdstat_'.length), { calls: infoNumber(p['calls']), usecPerCall: infoNumber(p['usec_per_call']) });
  }
  return out;
}

export function countersOf(sections: InfoSections, at: number): NodeCounters {
  const stats = sections['stats'] ?? {};
  const server = sections['server'] ?? {};
  const calls = new Map<string, number>();
  for (const [name, c] of commandStatsOf(sections)) calls.set(name, c.calls);
  const serverTime = server['server_time_usec'];
  return {
    at,
    serverTimeUs: serverTime === undefined ? undefined : infoNumber(serverTime),
    runId: server['run_id'] ?? '',
    totalCommands: infoNumber(stats['total_commands_processed']),
    netInputBytes: infoNumber(stats['total_net_input_bytes']),
    netOutputBytes: infoNumber(stats['total_net_output_bytes']),
    keyspaceHits: infoNumber(stats['keyspace_hits']),
    keyspaceMisses: infoNumber(stats['keyspace_misses']),
    evictedKeys: infoNumber(stats['evicted_keys']),
    expiredKeys: infoNumber(stats['expired_keys']),
    rejectedConnections: infoNumber(stats['rejected_connections']),
    commandCalls: calls,
  };
}

/** Seconds between two polls of the same server run, or undefined when rates cannot be taken. */
export function secondsBetween(prev: NodeCounters | undefined, cur: NodeCounters): number | undefined {
  if (prev === undefined || prev.runId !== cur.runId) return undefined;
  const seconds = prev.serverTimeUs !== undefined && cur.serverTimeUs !== undefined ? (cur.serverTimeUs - prev.serverTimeUs) / 1e6 : (cur.at - prev.at) / 1000;
  return seconds > 0 ? seconds : undefined;
}

/** Per-second increase of a counter, or undefined without a usable previous value. */
export function ratePerSec(cur: number, prev: number | undefined, seconds: number | undefined): number | undefined {
  if (prev === undefined || seconds === undefined || cur < prev) return undefined;
  return (cur - prev) / seconds;
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
