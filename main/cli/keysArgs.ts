import { EscapeError, parseEscaped } from '../../app/keyText';
import { AppError } from '../../app/errors';
import { KeyType } from '../../app/schemas/sampling';
import { int, oneOf, parseFlags } from './flags';
import { connectionFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS, type ConnectionFlags } from './topologyFlags';

export const KEYS_HELP = `Usage: cacheboard keys <tree|ls|get> --url redis://[user:pass@]host:port/db [options]

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

  --json    print one JSON object:
            tree: {"total","complete","seconds","nodes":[{"prefix","count","children":[…]}]}
            ls:   {"keys":[{"key","type","ttl_ms"}],"complete"}

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
    { url: { type: 'string' }, ...TOPOLOGY_OPTIONS, separator: { type: 'string' }, depth: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
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
  if (v.match === undefined || v.match === '') throw new AppError('VALIDATION', '--match is required: a glob such as "user:*"', 'match');
  let match: Buffer;
  try {
    match = Buffer.from(parseEscaped(v.match));
  } catch (e) {
    if (e instanceof EscapeError) throw new AppError('VALIDATION', `--match: ${e.message}`, 'match');
    throw e;
  }
  if (match.length > 256) throw new AppError('VALIDATION', '--match must be at most 256 bytes', 'match');
  return {
    ...connectionFlags(v, env),
    match,
    type: oneOf('type', v.type, KeyType.options),
    limit: int('limit', v.limit, 1) ?? 100,
    json: v.json ?? false,
  };
}
