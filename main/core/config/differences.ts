import type { DiffKind } from '../../../app/schemas/config';
import { namesOf } from '../text/configAliases';

/** A node's values as compared: undefined when the node was not read. */
export interface ComparedNode {
  address: string;
  role: string;
  master?: string;
  values: ReadonlyMap<string, string> | undefined;
}

export interface Difference {
  against: string;
  kind: DiffKind;
  reason: string;
}

/**
 * Differences known to matter, and why: what changes for the data or its clients when this node
 * (a replica promoted by a failover, or one shard of a cluster) runs with a value unlike the other's.
 */
const MATTERS: Readonly<Record<string, string>> = {
  maxmemory: 'it evicts (or refuses writes) at another memory size, so once promoted it holds a different amount of data',
  'maxmemory-policy': 'it evicts other keys, or none, when full',
  'maxmemory-clients': 'it caps the memory of its clients at another size',
  save: 'it snapshots to disk on another schedule, or not at all: after a failover the data is kept differently',
  appendonly: 'one keeps an append-only file and the other does not: durability changes after a failover',
  appendfsync: 'it flushes the append-only file on another schedule: durability changes after a failover',
  requirepass: "it takes another password: clients using the other node's are refused here (after a failover, all of them)",
  maxclients: 'it accepts another number of clients',
  databases: 'it has another number of databases: SELECT of a high DB fails on one of them',
  timeout: 'it closes idle clients after another time',
  'client-output-buffer-limit': 'it cuts replicas, Pub/Sub and normal clients at other output buffer sizes',
  'repl-backlog-size': 'its replication backlog is another size: a smaller one forces full resyncs after a disconnect or a failover',
  'notify-keyspace-events': 'it sends other keyspace notifications: subscribers miss events after a failover',
  'min-replicas-to-write': 'it refuses writes under another number of connected replicas',
  'min-replicas-max-lag': 'it counts a replica as connected under another lag',
  'busy-reply-threshold': 'a script or function is stopped after another time',
  'lua-time-limit': 'a script is stopped after another time',
  'cluster-node-timeout': 'it takes another time to call a node failing: the nodes disagree on failures',
  'cluster-require-full-coverage': 'one stops serving when slots are uncovered and the other keeps serving',
  'acl-pubsub-default': 'new ACL users get another default access to channels',
};

/**
 * Parameters each node has its own of by design: its port and addresses, its files and folder,
 * where it replicates from and its failover priority, CPU pinning, TLS certificate. Their
 * differences are shown but not counted as drift.
 */
const OWN =
  /^(port|tls-port|bind|bind-source-addr|unixsocket|unixsocketperm|dir|logfile|pidfile|syslog-ident|dbfilename|appendfilename|appenddirname|replicaof|slaveof|replica-priority|slave-priority|daemonize|supervised|proc-title-template|socket-mark-id|cluster-config-file|cluster-port|tls-cert-file|tls-key-file|tls-key-file-pass|tls-client-cert-file|tls-client-key-file|tls-client-key-file-pass|tls-dh-params-file|oom-score-adj-values)$|^cluster-announce-|^(replica|slave)-announce-|_cpulist$/;

/** A replica's login to its master: a master needs none (until a failover makes it a replica). */
const REPLICA_ONLY = new Set(['masterauth', 'masteruser']);

type Relation = 'replica' | 'masters';

/** How far a difference on `name` matters, and why, in words. */
export function classify(name: string, relation: Relation, against: string): Difference {
  const whom = relation === 'replica' ? `its master ${against}` : `the other masters (as on ${against})`;
  // By any of its names (Valkey's primaryauth is Redis's masterauth).
  const names = namesOf(name);
  const why = names.map((n) => MATTERS[n]).find((w) => w !== undefined);
  if (why !== undefined) return { against, kind: 'matters', reason: `Unlike ${whom}: ${why}.` };
  if (names.some((n) => OWN.test(n) || (relation === 'replica' && REPLICA_ONLY.has(n)))) {
    return { against, kind: 'expected', reason: `Unlike ${whom}, as expected: each node has its own.` };
  }
  return { against, kind: 'drift', reason: `Unlike ${whom}: nodes usually share it.` };
}

function same(a: string | undefined, b: string | undefined): boolean {
  return a === b;
}

/**
 * Every difference worth showing, per node and parameter: a replica's values against its
 * master's, and on a cluster (two masters or more) each master against the value most masters
 * hold (ties go to the first master listed). Nodes not read are compared with nothing. A
 * parameter one node lacks (another Redis version) differs too.
 */
export function differences(nodes: readonly ComparedNode[]): Map<string, Map<string, Difference>> {
  const out = new Map<string, Map<string, Difference>>();
  const mark = (address: string, name: string, d: Difference) => {
    let m = out.get(address);
    if (m === undefined) out.set(address, (m = new Map()));
    m.set(name, d);
  };
  const read = nodes.filter((n): n is ComparedNode & { values: ReadonlyMap<string, string> } => n.values !== undefined);
  const byAddress = new Map(read.map((n) => [n.address, n]));

  for (const r of read) {
    const m = r.master === undefined ? undefined : byAddress.get(r.master);
    if (m === undefined || r.role === 'master') continue;
    for (const name of new Set([...r.values.keys(), ...m.values.keys()])) {
      if (!same(r.values.get(name), m.values.get(name))) mark(r.address, name, classify(name, 'replica', m.address));
    }
  }

  const masters = read.filter((n) => n.role === 'master');
  if (masters.length >= 2) {
    const names = new Set(masters.flatMap((n) => [...n.values.keys()]));
    for (const name of names) {
      const counts = new Map<string | undefined, number>();
      for (const n of masters) counts.set(n.values.get(name), (counts.get(n.values.get(name)) ?? 0) + 1);
      if (counts.size < 2) continue;
      // The first master holding the most common value stands for "the other masters".
      const most = Math.max(...counts.values());
      const model = masters.find((n) => counts.get(n.values.get(name)) === most) ?? masters[0];
      if (model === undefined) continue;
      for (const n of masters) {
        if (!same(n.values.get(name), model.values.get(name))) mark(n.address, name, classify(name, 'masters', model.address));
      }
    }
  }
  return out;
}

const RANK: Readonly<Record<DiffKind, number>> = { expected: 1, drift: 2, matters: 3 };

/** The kind that matters most of several (undefined for none). */
export function worst(kinds: Iterable<DiffKind | undefined>): DiffKind | undefined {
  let top: DiffKind | undefined;
  for (const k of kinds) if (k !== undefined && (top === undefined || RANK[k] > RANK[top])) top = k;
  return top;
}
