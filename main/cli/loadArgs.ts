import { AppError } from '../../app/errors';
import { DEFAULT_MAX_SHRINK, InputFormat, LoadMode, Mapping, RecordType } from '../../app/schemas/bulk';
import { int, oneOf, parseCommand } from './flags';
import { connectionFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS, type ConnectionFlags } from './topologyFlags';

export interface LoadArgs extends ConnectionFlags {
  file: string;
  format?: InputFormat;
  mapping?: Mapping;
  mode: LoadMode;
  /** --mode was given: a cluster load has no default mode (see docs/bulk-load.md). */
  modeGiven: boolean;
  stagingDb?: number;
  force: boolean;
  maxErrors: number;
  bgsave: boolean;
  waitReplicas?: number;
  allowEmpty: boolean;
  maxShrink: number;
  allowEvictionRisk: boolean;
  allowLiveWrites: boolean;
  json: boolean;
}
type InputFormat = ReturnType<typeof InputFormat.parse>;
type LoadMode = ReturnType<typeof LoadMode.parse>;

export const LOAD_HELP = `Usage: cacheboard load <file> --url redis://[user:pass@]host:port/db [options]

Input
  --format resp|commands|csv|tsv|ndjson|keys-ndjson|keys-csv
                        default: from the file extension; keys-ndjson and keys-csv are
                        what \`keys export --format ndjson|csv\` writes (*.keys.ndjson, *.keys.csv)
  --key TEMPLATE        csv/tsv/ndjson key template over columns, e.g. 'user:{id}'
  --type string|hash|set|zset|list        default string
  --value COL           string: the value column
  --fields a,b          hash: only these columns become fields (default: all others)
  --member COL          set/zset/list: the member column
  --score COL           zset: the score column
  --ttl SECONDS         expire every key written

Load
  --mode swap|flush|merge   swap (default): stage in a spare DB, verify, SWAPDB;
                        a cluster has no default: --mode flush or --mode merge
  --staging-db N        swap: the staging DB (default: the highest empty one, never
                        DB 0); claimed only while it holds no key
  --force               swap: flush a non-empty staging DB first
  --allow-live-writes   swap: switch even though other clients wrote to the live
                        DB during the load (SWAPDB discards those writes; the
                        report counts them); without it such a load is refused
  --allow-empty         swap, flush: replace a DB holding keys with an empty one
                        (an empty file, a header-only CSV), or with a much smaller
                        one; without it such a load is refused, the live DB intact
  --max-shrink PCT      swap: refuse when the new DB has more than PCT% fewer keys
                        than the live one (default ${DEFAULT_MAX_SHRINK}; 100 allows any shrink)
  --allow-eviction-risk start although the input may not fit under maxmemory with
                        an evicting maxmemory-policy; the load still stops at the
                        first eviction (INFO evicted_keys)
  --max-errors N        error replies tolerated before the load stops (default 0)
  --bgsave              BGSAVE after the switch and report its duration
  --wait-replicas N     WAIT for N replicas to acknowledge, and report their offsets
  --json                print one JSON object: records, commands, errors, seconds,
                        ops_per_sec, mode, swapped, bgsave_seconds, outcome,
                        evicted_keys; new_keys, live_keys and live_check when
                        compared; live_writes {db, writes, discarded, keys, note}
                        and staging_left {db, keys, reason, clean_command} for
                        swap; error {code, message, field} on failure (and
                        nodes, redirects for a cluster); replica_lag (the most
                        each replica lagged) and, with --wait-replicas,
                        replicas {addr, offset, caught_up, behind_bytes};
                        restrictions {command, effect}: what was not protected

${TOPOLOGY_HELP}  With --cluster every command goes to the master serving its key's slot, one
  pipe per master (MOVED/ASK followed); swap is refused there (no SWAPDB in a
  cluster). With --sentinel the load goes to the master the sentinels name
  when it starts.
The URL may also come from REDIS_URL. Exit code 0 only when the load succeeded.
`;

/** Flags to a validated LoadArgs; every error names its flag. */
export function parseLoadArgs(argv: string[], env: NodeJS.ProcessEnv): LoadArgs {
  const parsed = parseCommand(
    argv,
    {
      url: { type: 'string' },
      ...TOPOLOGY_OPTIONS,
      format: { type: 'string' },
      key: { type: 'string' },
      type: { type: 'string' },
      value: { type: 'string' },
      fields: { type: 'string' },
      member: { type: 'string' },
      score: { type: 'string' },
      ttl: { type: 'string' },
      mode: { type: 'string' },
      'staging-db': { type: 'string' },
      force: { type: 'boolean' },
      'max-errors': { type: 'string' },
      bgsave: { type: 'boolean' },
      'wait-replicas': { type: 'string' },
      'allow-empty': { type: 'boolean' },
      'max-shrink': { type: 'string' },
      'allow-eviction-risk': { type: 'boolean' },
      'allow-live-writes': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    LOAD_HELP,
  );
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) {
    throw new AppError('VALIDATION', `give exactly one input file (got ${positionals.length})\n\n${LOAD_HELP}`, 'file');
  }
  const out: LoadArgs = {
    file: positionals[0] as string,
    ...connectionFlags(v, env),
    mode: oneOf('mode', v.mode, LoadMode.options) ?? 'swap',
    modeGiven: v.mode !== undefined,
    force: v.force ?? false,
    maxErrors: int('max-errors', v['max-errors'], 0) ?? 0,
    bgsave: v.bgsave ?? false,
    allowEmpty: v['allow-empty'] ?? false,
    maxShrink: percent('max-shrink', v['max-shrink']) ?? DEFAULT_MAX_SHRINK,
    allowEvictionRisk: v['allow-eviction-risk'] ?? false,
    allowLiveWrites: v['allow-live-writes'] ?? false,
    json: v.json ?? false,
  };
  const format = oneOf('format', v.format, InputFormat.options);
  if (format) out.format = format;
  const stagingDb = int('staging-db', v['staging-db'], 0);
  if (stagingDb !== undefined) out.stagingDb = stagingDb;
  const waitReplicas = int('wait-replicas', v['wait-replicas'], 0);
  if (waitReplicas !== undefined) out.waitReplicas = waitReplicas;

  const mappingFlags = ['key', 'type', 'value', 'fields', 'member', 'score', 'ttl'] as const;
  if (mappingFlags.some((f) => v[f] !== undefined)) {
    const ttl = int('ttl', v.ttl, 1);
    const raw = {
      key: v.key,
      type: oneOf('type', v.type, RecordType.options) ?? 'string',
      ...(v.value !== undefined ? { value: v.value } : {}),
      ...(v.fields !== undefined
        ? {
            fields: v.fields
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          }
        : {}),
      ...(v.member !== undefined ? { member: v.member } : {}),
      ...(v.score !== undefined ? { score: v.score } : {}),
      ...(ttl !== undefined ? { ttl } : {}),
    };
    const m = Mapping.safeParse(raw);
    if (!m.success) {
      const issue = m.error.issues[0];
      const flag = String(issue?.path[0] ?? 'key');
      throw new AppError('VALIDATION', `--${flag}: ${issue?.message ?? 'invalid'}`, flag);
    }
    out.mapping = m.data;
  }
  return out;
}

function percent(flag: string, v: string | undefined): number | undefined {
  const n = int(flag, v, 0);
  if (n !== undefined && n > 100) throw new AppError('VALIDATION', `--${flag} is a percentage, 0 to 100, not "${v ?? ''}"`, flag);
  return n;
}
