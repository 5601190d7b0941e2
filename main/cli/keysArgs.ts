import { EscapeError, parseEscaped } from '../../app/keyText';
import { AppError } from '../../app/errors';
import { KeyType } from '../../app/schemas/sampling';
import { int, oneOf, parseFlags } from './flags';
import { connectionFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS, type ConnectionFlags } from './topologyFlags';

export const KEYS_HELP = `Usage: cacheboard keys <tree|ls|get|delete|expire|persist|export> --url redis://[user:pass@]host:port/db [options]

  tree   the namespace tree: a count per folder for the whole DB (one paced SCAN
         of every master; never KEYS)
           --separator S   split names on S (default ":")
           --depth N       levels printed (default 2)
           --limit N       folders printed per level, the largest first (default 100)
  ls     keys matching a glob (SCAN MATCH syntax), with their type and TTL
           --match GLOB    required; typed escaped like names are shown: \\xff, \\r,
                           \\n, \\\\ (so a glob's own escape is \\\\*)
           --type T        string, hash, list, set, zset, stream or other
           --limit N       at most N keys (default 100)
  get    one key's metadata and the first page of its value: cacheboard keys get KEY

  delete|expire|persist|export   every key matching a glob and the filters, on every
         master at once (paced SCAN MATCH, pipelined; a key that no longer fits a
         filter when its turn comes is skipped and counted)
           --match GLOB    required (unless --resume), typed as for ls
           --type T        only keys of this type
           --no-ttl | --ttl-below S | --ttl-above S
                           only keys without a TTL, or with one below / above S seconds;
                           a hash whose fields expire (Redis 7.4+, Valkey 9) has one
                           for --no-ttl (over 64 fields: 64 random ones checked), none
                           for --ttl-below/--ttl-above (they read the key's own TTL)
           --idle-min S    only keys idle at least S seconds (not under an LFU policy)
           --min-memory B  only keys whose MEMORY USAGE is at least B bytes
           --ttl SECONDS   expire: the TTL to set (required)
           --jitter PCT    expire: spread each key's TTL over ±PCT% (the same for a key
                           every time), so a namespace does not expire in one second
           --no-ttl-only   expire: only keys without a key TTL (EXPIRE … NX)
           --out FILE      export: write RESTORE key ttl payload REPLACE commands (RESP;
                           ttl relative, 0 when none) for \`cacheboard load --format resp\`
                           or \`redis-cli --pipe\`; written to a temp file, then renamed
           --format F      export: restore (the default, above), ndjson or csv: one
                           key per line {key, type, ttl_ms, value} (docs/export.md),
                           loaded back by \`cacheboard load\` (formats keys-ndjson,
                           keys-csv); ndjson and csv take --match and --out only
           --no-ttls       export ndjson|csv: write no TTLs
           --max-latency-ms N   the PING p99 rise the run may cause (default 2)
           --full-speed         no latency budget (replica lag still applies)
           --max-replica-lag-bytes N   wait while a replica lags more (default 10 MiB)
           --dry-run       count per master, 20 names and the memory; change nothing
           --yes           act without asking (needed off a terminal)
           --resume ID     continue a run that was cut (Ctrl-C, a crash, a lost
                           connection), with the same --url and topology flags

  --json    print one JSON object:
            tree: {"total","complete","seconds","nodes":[{"prefix","count","children":[…]}]}
            ls:   {"keys":[{"key","type","ttl_ms"}],"complete"}
            delete|expire|persist|export: {"action","matched","acted","skipped",
                  "errors","seconds"} plus "deleted", "expired", "persisted", or
                  "exported" and "file"; exit 1 on any error

${TOPOLOGY_HELP}  With --cluster every master is read; with --sentinel the master the sentinels name.
The URL may also come from REDIS_URL. Names are printed escaped (\\xff, \\r\\n, \\").
`;

export interface KeysTreeArgs extends ConnectionFlags {
  separator: string;
  depth: number;
  limit: number;
  json: boolean;
}

export interface KeysLsArgs extends ConnectionFlags {
  match: Buffer;
  type: KeyType | undefined;
  limit: number;
  json: boolean;
}

export function parseKeysTreeArgs(argv: string[], env: NodeJS.ProcessEnv): KeysTreeArgs {
  const v = parseFlags(
    argv,
    {
      url: { type: 'string' },
      ...TOPOLOGY_OPTIONS,
      separator: { type: 'string' },
      depth: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    },
    KEYS_HELP,
  );
  const separator = v.separator ?? ':';
  if (separator === '' || separator.length > 8) throw new AppError('VALIDATION', '--separator must be 1 to 8 characters', 'separator');
  return {
    ...connectionFlags(v, env),
    separator,
    depth: int('depth', v.depth, 1) ?? 2,
    limit: int('limit', v.limit, 1) ?? 100,
    json: v.json ?? false,
  };
}

export function parseKeysLsArgs(argv: string[], env: NodeJS.ProcessEnv): KeysLsArgs {
  const v = parseFlags(
    argv,
    { url: { type: 'string' }, ...TOPOLOGY_OPTIONS, match: { type: 'string' }, type: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
    KEYS_HELP,
  );
  const match = matchFlag(v.match, 'user:*');
  return {
    ...connectionFlags(v, env),
    match,
    type: oneOf('type', v.type, KeyType.options),
    limit: int('limit', v.limit, 1) ?? 100,
    json: v.json ?? false,
  };
}

/** --match: required, typed escaped as names are shown (\\xff, \\r…), at most 256 bytes; `example` is the glob the error suggests. */
export function matchFlag(value: string | undefined, example: string): Buffer {
  if (value === undefined || value === '') throw new AppError('VALIDATION', `--match is required: a glob such as "${example}"`, 'match');
  let match: Buffer;
  try {
    match = Buffer.from(parseEscaped(value));
  } catch (e) {
    if (e instanceof EscapeError) throw new AppError('VALIDATION', `--match: ${e.message}`, 'match');
    throw e;
  }
  if (match.length > 256) throw new AppError('VALIDATION', '--match must be at most 256 bytes', 'match');
  return match;
}
