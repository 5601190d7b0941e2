import type { NodeSample } from '../../../app/schemas/metrics';
import type { Restriction } from '../../../app/schemas/restrictions';
import { readRefusal } from '../redis/refusal';
import { expiredSubkeys, infoNumber, toInfoSnapshot } from '../info/infoSnapshot';
import type { InfoSections } from '../info/parseInfo';
import { commandStatsOf, countersOf, ratePerSec, round2, secondsBetween, type NodeCounters } from './counters';
import { replicationOf } from './replicationInfo';

export const TOP_COMMANDS = 10;

type Traffic = NonNullable<NodeSample['traffic']>;
type Persistence = NonNullable<NodeSample['persistence']>;
type Replication = NonNullable<NodeSample['replication']>;
type TopCommand = NonNullable<NodeSample['topCommands']>[number];

/**
 * A poll that got no answer: only address, time, up=false, why, and whether the node was
 * slow (the connection open, no answer in time) or unreachable (NodeSample leaves the rest absent).
 */
/** What a node without INFO leaves out: every figure of its sample. */
export const INFO_REFUSED_EFFECT = 'no figures for this node (role, ops/s, memory, clients, persistence, replication, keys)';

/**
 * A node that answered but refused INFO (an ACL user without @dangerous): up, with no figure
 * rather than a made-up 0, and the one line that says why.
 */
export function restrictedSample(address: string, at: number, restrictions: Restriction[]): NodeSample {
  return { address, at, up: true, status: 'up', restrictions };
}

/**
 * A poll that failed: refused (INFO, or CLUSTER INFO with it) is a node that answered, without
 * figures; any other error is a node down.
 */
export function failedSample(address: string, at: number, error: string, status: 'slow' | 'unreachable' = 'unreachable'): NodeSample {
  const refusal = readRefusal(error, ['INFO']);
  if (refusal === undefined) return downSample(address, at, error, status);
  return restrictedSample(address, at, [{ command: refusal.command, effect: INFO_REFUSED_EFFECT }]);
}

export function downSample(address: string, at: number, error: string, status: 'slow' | 'unreachable' = 'unreachable'): NodeSample {
  return { address, at, up: false, status, error };
}

/**
 * Rates over the last interval from the counters' increase; without a previous
 * poll of the same server run (first poll, restart, CONFIG RESETSTAT) the
 * server's own instantaneous_* figures (a ~1.6 s moving average) stand in.
 */
function trafficOf(sections: InfoSections, cur: NodeCounters, prev: NodeCounters | undefined): Traffic {
  const stats = sections['stats'] ?? {};
  const dt = secondsBetween(prev, cur);
  const rate = (pick: (c: NodeCounters) => number): number | undefined => ratePerSec(pick(cur), prev && pick(prev), dt);
  const hits = dt === undefined || prev === undefined ? cur.keyspaceHits : cur.keyspaceHits - prev.keyspaceHits;
  const misses = dt === undefined || prev === undefined ? cur.keyspaceMisses : cur.keyspaceMisses - prev.keyspaceMisses;
  const inBytes = rate((c) => c.netInputBytes);
  const outBytes = rate((c) => c.netOutputBytes);
  return {
    opsPerSec: round2(rate((c) => c.totalCommands) ?? infoNumber(stats['instantaneous_ops_per_sec'])),
    inputKbps: round2(inBytes === undefined ? infoNumber(stats['instantaneous_input_kbps']) : inBytes / 1024),
    outputKbps: round2(outBytes === undefined ? infoNumber(stats['instantaneous_output_kbps']) : outBytes / 1024),
    // Without a previous poll: the ratio since the server started (or since CONFIG RESETSTAT).
    hitRatio: hits >= 0 && misses >= 0 && hits + misses > 0 ? round2(hits / (hits + misses)) : null,
    evictionsPerSec: round2(rate((c) => c.evictedKeys) ?? 0),
    expirationsPerSec: round2(rate((c) => c.expiredKeys) ?? 0),
  };
}

function persistenceOf(sections: InfoSections): Persistence {
  const p = sections['persistence'] ?? {};
  const aofEnabled = p['aof_enabled'] === '1';
  const out: Persistence = {
    rdbBgsaveInProgress: p['rdb_bgsave_in_progress'] === '1',
    rdbLastBgsaveStatus: p['rdb_last_bgsave_status'] ?? 'unknown',
    // -1 until the first BGSAVE of this run.
    rdbLastBgsaveSeconds: infoNumber(p['rdb_last_bgsave_time_sec']),
    rdbChangesSinceLastSave: infoNumber(p['rdb_changes_since_last_save']),
    rdbLastSaveTime: infoNumber(p['rdb_last_save_time']),
    aofEnabled,
    aofRewriteInProgress: p['aof_rewrite_in_progress'] === '1',
    aofLastRewriteStatus: p['aof_last_bgrewrite_status'] ?? 'unknown',
    latestForkUsec: infoNumber((sections['stats'] ?? {})['latest_fork_usec']),
  };
  // INFO shows aof_current_size only while AOF is on.
  if (aofEnabled && p['aof_current_size'] !== undefined) out.aofSizeBytes = infoNumber(p['aof_current_size']);
  return out;
}

function replicationSampleOf(sections: InfoSections): Replication {
  const facts = replicationOf(sections);
  const out: Replication = {
    role: facts.role,
    masterReplOffset: facts.masterReplOffset,
    // The offset a replica last acknowledged; the poller refines it with the replica's own, fresher offset.
    replicas: facts.replicas.map((r) => ({
      address: r.address,
      state: r.state,
      offset: r.offset,
      lagBytes: Math.max(0, facts.masterReplOffset - r.offset),
      lagSeconds: r.lag,
    })),
  };
  if (facts.masterAddress !== undefined) out.masterAddress = facts.masterAddress;
  if (facts.masterLinkStatus !== undefined) out.masterLinkStatus = facts.masterLinkStatus;
  if (facts.masterLinkDownSinceSeconds !== undefined) out.masterLinkDownSinceSeconds = facts.masterLinkDownSinceSeconds;
  if (facts.replicaOffset !== undefined) out.replicaOffset = facts.replicaOffset;
  return out;
}

/**
 * The busiest commands: by calls per second over the last interval, or by
 * total calls when there is no previous poll to take a rate from.
 */
function topCommandsOf(sections: InfoSections, cur: NodeCounters, prev: NodeCounters | undefined): TopCommand[] {
  const dt = secondsBetween(prev, cur);
  const out: TopCommand[] = [];
  for (const [command, s] of commandStatsOf(sections)) {
    // A command first seen this interval was called `calls` times since the previous poll.
    const before = prev === undefined ? undefined : (prev.commandCalls.get(command) ?? 0);
    out.push({ command, calls: s.calls, callsPerSec: round2(ratePerSec(s.calls, before, dt) ?? 0), usecPerCall: s.usecPerCall });
  }
  const byRate = dt !== undefined;
  out.sort((a, b) => (byRate ? b.callsPerSec - a.callsPerSec : 0) || b.calls - a.calls || (a.command < b.command ? -1 : 1));
  return out.slice(0, TOP_COMMANDS);
}

/**
 * One NodeSample from a parsed INFO ALL, plus the counters to pass back in as
 * `prev` next time. Pure: the same input gives the same sample.
 */
export function deriveSample(address: string, at: number, sections: InfoSections, prev?: NodeCounters): { sample: NodeSample; counters: NodeCounters } {
  const snap = toInfoSnapshot(sections, at);
  const counters = countersOf(sections, at);
  const replication = replicationSampleOf(sections);
  const { memory } = snap;
  const subkeys = expiredSubkeys(sections['stats']);
  const sample: NodeSample = {
    address,
    at,
    up: true,
    status: 'up',
    role: replication.role,
    version: snap.server.version,
    server: snap.server.name,
    uptimeSeconds: snap.server.uptimeSeconds,
    traffic: trafficOf(sections, counters, prev),
    memory: {
      used: memory.used,
      peak: memory.peak,
      rss: memory.rss,
      fragmentation: memory.fragmentation,
      maxmemory: memory.maxmemory,
      percentOfMax: memory.maxmemory > 0 ? round2((memory.used / memory.maxmemory) * 100) : null,
    },
    clients: {
      connected: snap.clients.connected,
      blocked: snap.clients.blocked,
      // Cumulative since start: maxclients refusals are rare enough that the count itself is the news.
      rejected: counters.rejectedConnections,
    },
    keyspace: snap.keyspace.map(({ db, keys, expires, subexpiry }) => ({ db, keys, expires, ...(subexpiry === undefined ? {} : { subexpiry }) })),
    ...(subkeys === undefined ? {} : { expiredSubkeys: subkeys }),
    persistence: persistenceOf(sections),
    replication,
    topCommands: topCommandsOf(sections, counters, prev),
  };
  return { sample, counters };
}
