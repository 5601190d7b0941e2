import type { InfoSnapshot } from '../../../app/schemas/server';
import { serverIdentity } from '../redis/serverIdentity';
import { parseInfoPairs, type InfoSections } from './parseInfo';

/** A finite number from an INFO value, or 0 when absent or not numeric (INFO fields vary by version). */
export function infoNumber(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 0;
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

/**
 * Keyspace lines are named `db<N>`; anything else in that section is ignored.
 * `subexpiry` (Redis 7.4+: keys with hash fields that expire) is kept only where
 * the server reports it: its absence means "not reported", not 0.
 */
export function parseKeyspace(section: Record<string, string> | undefined): InfoSnapshot['keyspace'] {
  const out: InfoSnapshot['keyspace'] = [];
  for (const [name, value] of Object.entries(section ?? {})) {
    const m = /^db(\d+)$/.exec(name);
    if (!m) continue;
    const pairs = parseInfoPairs(value);
    const subexpiry = pairs['subexpiry'];
    out.push({
      db: Number(m[1]),
      keys: infoNumber(pairs['keys']),
      expires: infoNumber(pairs['expires']),
      avgTtl: infoNumber(pairs['avg_ttl']),
      ...(subexpiry === undefined ? {} : { subexpiry: infoNumber(subexpiry) }),
    });
  }
  return out.sort((a, b) => a.db - b.db);
}

/** INFO stats `expired_subkeys` (Redis 7.4+: hash fields expired); undefined where not reported. */
export function expiredSubkeys(stats: Record<string, string> | undefined): number | undefined {
  const v = stats?.['expired_subkeys'];
  return v === undefined ? undefined : infoNumber(v);
}

export function toInfoSnapshot(sections: InfoSections, at: number): InfoSnapshot {
  const s = (name: string): Record<string, string> => sections[name] ?? {};
  const server = s('server');
  const clients = s('clients');
  const memory = s('memory');
  const stats = s('stats');
  return {
    at,
    server: {
      ...serverIdentity(server),
      os: server['os'] ?? '',
      uptimeSeconds: infoNumber(server['uptime_in_seconds']),
      tcpPort: infoNumber(server['tcp_port']),
    },
    role: s('replication')['role'] ?? '',
    clients: {
      connected: infoNumber(clients['connected_clients']),
      blocked: infoNumber(clients['blocked_clients']),
    },
    memory: {
      used: infoNumber(memory['used_memory']),
      usedHuman: memory['used_memory_human'] ?? '',
      peak: infoNumber(memory['used_memory_peak']),
      rss: infoNumber(memory['used_memory_rss']),
      maxmemory: infoNumber(memory['maxmemory']),
      fragmentation: infoNumber(memory['mem_fragmentation_ratio']),
    },
    stats: {
      opsPerSec: infoNumber(stats['instantaneous_ops_per_sec']),
      totalCommands: infoNumber(stats['total_commands_processed']),
      keyspaceHits: infoNumber(stats['keyspace_hits']),
      keyspaceMisses: infoNumber(stats['keyspace_misses']),
      inputKbps: infoNumber(stats['instantaneous_input_kbps']),
      outputKbps: infoNumber(stats['instantaneous_output_kbps']),
    },
    keyspace: parseKeyspace(sections['keyspace']),
    sections,
  };
}
