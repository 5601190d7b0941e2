import { AppError } from '../../app/errors';
import { TrialKind, TrialOptions } from '../../app/schemas/trials';
import type { TrialSettings } from '../core/trials/runTrial';
import { int, parseCommand } from './flags';
import { connectionFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS, type ConnectionFlags } from './topologyFlags';

/** Trial settings without the DB, which comes from the URL. */
type WithoutDb<T> = T extends unknown ? Omit<T, 'db'> : never;

export interface TrialsArgs extends ConnectionFlags {
  settings: WithoutDb<TrialSettings>;
  json: boolean;
}

export const TRIALS_HELP = `Usage: cacheboard trials pipeline|multiplex|load --url redis://[user:pass@]host:port/db [options]

Times ways of sending commands to the real server. Every key a trial writes is
under cacheboard:trial:<run>: and is removed at the end, whether the trial is
done, fails or is stopped with Ctrl-C. A trial refuses a replica, and a DB that
holds keys of its own unless --confirm-non-empty.

  pipeline   N SETs one round trip each, in pipelined batches, each inside
             MULTI/EXEC, and in pipelined MULTI/EXEC batches; then a sweep of
             MULTI/EXEC of 1 to 100 SETs, sent plain and pipelined
  multiplex  N INCRs over --dbs DBs in round-robin batches, three ways: one
             connection that SELECTs, sequential; the per-DB connections,
             pipelined; fire and forget
  load       --clients connections with one request in flight each: N SETs,
             then N GETs (redis-benchmark -t set,get): requests/s and latency
             p50, p95, p99, max

  --n N                 pipeline: SETs per variant (100000); multiplex: INCRs
                        (5000); load: requests per command (100000)
  --batch B             pipeline: SETs per batch (1000); multiplex: INCRs per
                        batch (10)
  --no-sweep            pipeline: skip the transaction-size sweep
  --sweep-n N           pipeline: SETs per sweep size (10000)
  --dbs D               multiplex: DBs from the URL's on (5)
  --clients C           load: connections (50)
  --data-size B         load: bytes of each SET value (3)
  --keyspace R          load: keys drawn at random from this many (100000)
  --latency-ms R        go through a loopback proxy that adds R ms each way
                        (e.g. 0.3: a server across a network)
  --confirm-non-empty   run on a DB that holds keys of its own (only scratch
                        keys are written and removed)
  --json                print one JSON object: each variant's seconds,
                        ops_per_sec and ratio to the first (plain, blocking)

${TOPOLOGY_HELP}  With --cluster, pipeline and load run on one master: the one serving the
  slot of the run's hash tag, which every scratch key carries
  (cacheboard:trial:{<run>}:); multiplex is refused (a cluster has only DB 0).
  With --sentinel the trial runs on the master the sentinels name.
The URL may also come from REDIS_URL. Exit code 0 when done, 1 on failure, 130
when stopped with Ctrl-C, 143 with SIGTERM, 129 with SIGHUP (the variants that
finished are printed, the scratch keys removed).
`;

/** Each option's flag, and the trials it applies to. */
const FLAGS = {
  n: { flag: 'n', trials: ['pipeline', 'multiplex', 'load'] },
  batch: { flag: 'batch', trials: ['pipeline', 'multiplex'] },
  sweepN: { flag: 'sweep-n', trials: ['pipeline'] },
  dbs: { flag: 'dbs', trials: ['multiplex'] },
  clients: { flag: 'clients', trials: ['load'] },
  dataSize: { flag: 'data-size', trials: ['load'] },
  keyspace: { flag: 'keyspace', trials: ['load'] },
  latencyMs: { flag: 'latency-ms', trials: ['pipeline', 'multiplex', 'load'] },
} as const satisfies Record<string, { flag: string; trials: readonly TrialKind[] }>;

/** A flag's decimal value (undefined when absent); the error names the flag. */
function decimal(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(v)) throw new AppError('VALIDATION', `--${flag} must be a number of ms ≥ 0, like 0.3, not "${v}"`, flag);
  return Number(v);
}

/** Flags to validated trial settings; every error names its flag. */
export function parseTrialsArgs(argv: string[], env: NodeJS.ProcessEnv): TrialsArgs {
  const parsed = parseCommand(
    argv,
    {
      url: { type: 'string' },
      ...TOPOLOGY_OPTIONS,
      n: { type: 'string' },
      batch: { type: 'string' },
      'no-sweep': { type: 'boolean' },
      'sweep-n': { type: 'string' },
      dbs: { type: 'string' },
      clients: { type: 'string' },
      'data-size': { type: 'string' },
      keyspace: { type: 'string' },
      'latency-ms': { type: 'string' },
      'confirm-non-empty': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    TRIALS_HELP,
  );
  const v = parsed.values;
  const [kind, extra] = parsed.positionals;
  if (kind === undefined) throw new AppError('VALIDATION', `which trial? pipeline, multiplex or load\n\n${TRIALS_HELP}`, 'trial');
  const trial = TrialKind.options.find((t) => t === kind);
  if (trial === undefined) throw new AppError('VALIDATION', `unknown trial "${kind}": pipeline, multiplex or load`, 'trial');
  if (extra !== undefined) throw new AppError('VALIDATION', `one trial at a time, not "${kind} ${extra}"`, 'trial');
  const connection = connectionFlags(v, env);

  const given: Record<keyof typeof FLAGS, number | undefined> = {
    n: int('n', v.n, 0),
    batch: int('batch', v.batch, 0),
    sweepN: int('sweep-n', v['sweep-n'], 0),
    dbs: int('dbs', v.dbs, 0),
    clients: int('clients', v.clients, 0),
    dataSize: int('data-size', v['data-size'], 0),
    keyspace: int('keyspace', v.keyspace, 0),
    latencyMs: decimal('latency-ms', v['latency-ms']),
  };
  for (const [field, value] of Object.entries(given)) {
    const { flag, trials } = FLAGS[field as keyof typeof FLAGS];
    if (value !== undefined && !(trials as readonly string[]).includes(trial)) {
      throw new AppError('VALIDATION', `--${flag} is for the ${trials.join(' and ')} trial${trials.length > 1 ? 's' : ''}, not ${trial}`, flag);
    }
  }
  if (v['no-sweep'] && trial !== 'pipeline') throw new AppError('VALIDATION', `--no-sweep is for the pipeline trial, not ${trial}`, 'no-sweep');

  const raw = {
    profileId: 'cli',
    trial,
    ...Object.fromEntries(Object.entries(given).filter(([, x]) => x !== undefined)),
    ...(v['no-sweep'] ? { sweep: false } : {}),
    confirmNonEmpty: v['confirm-non-empty'] ?? false,
  };
  const checked = TrialOptions.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const flag = FLAGS[String(issue?.path[0]) as keyof typeof FLAGS]?.flag ?? trial;
    throw new AppError('VALIDATION', `--${flag}: ${issue?.message ?? 'invalid'}`, flag);
  }
  const { profileId: _p, db: _d, ...settings } = checked.data;
  return { ...connection, settings, json: v.json ?? false };
}
