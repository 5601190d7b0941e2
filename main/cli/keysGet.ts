import { AppError } from '../../app/errors';
import { EscapeError, parseEscaped } from '../../app/keyText';
import type { KeyMeta, ReadResult, ValueBytes } from '../../app/schemas/keys';
import { firstView } from '../core/keys/values/firstView';
import { valueClient } from '../core/keys/values/valueClient';
import { withCliPool } from './cliPool';
import { parseCommand } from './flags';
import { connectionFlags, specFromFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS } from './topologyFlags';

export const KEYS_GET_HELP = `Usage: cacheboard keys get KEY --url redis://[user:pass@]host:port[/db] [--json]

One key's metadata (type, encoding, length, MEMORY USAGE, TTL, OBJECT FREQ or
IDLETIME as the eviction policy allows) and the first page of its value: a
string's first 256 KB, the first 200 fields, items or members, the first 100
stream entries. Never a whole big value (GETRANGE, HSCAN, LRANGE, SSCAN, ZRANGE
and XRANGE with a COUNT).

KEY is typed as it is shown, with escapes for any byte: \\xff, \\r, \\n, \\t,
\\\\, \\" and \\u202e. Put -- before a KEY that starts with "-".
  --json    one object: {"meta": {...}, "page": {...} | null}; names and values
            carry their exact bytes as base64 ("b64") beside the escaped text

${TOPOLOGY_HELP}The URL may also come from REDIS_URL. Exit code 1 when the key does not exist.
`;

/** The typed key as bytes; a bad escape names its position. */
function keyOf(positionals: string[]): Buffer {
  if (positionals.length !== 1) throw new AppError('VALIDATION', `keys get takes one KEY, not ${positionals.length}\n\n${KEYS_GET_HELP}`, 'key');
  try {
    return Buffer.from(parseEscaped(positionals[0] as string));
  } catch (e) {
    if (e instanceof EscapeError) throw new AppError('VALIDATION', `KEY: ${e.message}`, 'key');
    throw e;
  }
}

/** `cacheboard keys get KEY …`: the exit code. */
export async function keysGet(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseCommand(argv, { url: { type: 'string' }, ...TOPOLOGY_OPTIONS, json: { type: 'boolean' } }, KEYS_GET_HELP);
  const key = keyOf(positionals);
  const spec = specFromFlags(connectionFlags(values, env));
  const view = await withCliPool(spec, async (pool, id) => firstView(await valueClient(pool, id, spec, spec.db), key));
  process.stdout.write(values.json === true ? `${JSON.stringify(view)}\n` : `${human(view.meta, view.page)}\n`);
  return view.meta.exists ? 0 : 1;
}

/** Characters of a string page the human output prints. */
const TEXT_SHOWN = 4096;
const bytes = (n: number): string => (n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / (1 << 20)).toFixed(1)} MiB`);
const shown = (v: ValueBytes): string => (v.truncated ? `${v.text}… (${bytes(v.bytes)})` : v.text);

function human(meta: KeyMeta, page: ReadResult | null): string {
  if (!meta.exists) return `${meta.key.text}: no such key`;
  const lines = [`key       ${meta.key.text}`, `type      ${meta.moduleType ?? meta.type ?? '?'}${meta.encoding === null ? '' : ` (${meta.encoding})`}`];
  if (meta.length !== null) lines.push(`length    ${meta.length}`);
  if (meta.memory !== null) lines.push(`memory    ${bytes(meta.memory)}`);
  if (meta.dumpBytes !== null) lines.push(`dump      ${bytes(meta.dumpBytes)}`);
  lines.push(`ttl       ${meta.ttlMs === null ? '?' : meta.ttlMs < 0 ? 'none' : `${(meta.ttlMs / 1000).toFixed(1)} s`}`);
  if (meta.freq !== null) lines.push(`freq      ${meta.freq}`);
  if (meta.idleSeconds !== null) lines.push(`idle      ${meta.idleSeconds} s`);
  lines.push(`policy    ${meta.evictionPolicy ?? '? (CONFIG refused)'}`);
  if (page !== null) lines.push('', ...pageLines(page));
  return lines.join('\n');
}

function pageLines(page: ReadResult): string[] {
  switch (page.type) {
    case 'string':
      return [
        `bytes ${page.offset}-${page.offset + page.data.bytes} of ${page.total}${page.data.bytes < page.total ? ' (first page)' : ''}`,
        // A terminal is no place for 256 KB of escaped text; --json carries the whole page.
        page.data.text.length > TEXT_SHOWN ? `${page.data.text.slice(0, TEXT_SHOWN)}… (--json for the whole page)` : page.data.text,
      ];
    case 'hash':
      return [
        `${page.entries.length} of ${page.total} fields${page.cursor === '0' ? '' : ` (next cursor ${page.cursor})`}`,
        ...page.entries.map((e) => `${shown(e.field)} => ${shown(e.value)}`),
      ];
    case 'set':
      return [`${page.members.length} of ${page.total} members${page.cursor === '0' ? '' : ` (next cursor ${page.cursor})`}`, ...page.members.map(shown)];
    case 'list':
      return [`${page.items.length} of ${page.total} items`, ...page.items.map((i) => `${i.index}) ${shown(i.value)}`)];
    case 'zset':
      return [`${page.members.length} of ${page.total} members`, ...page.members.map((m) => `${m.rank ?? '-'}) ${m.score}  ${shown(m.member)}`)];
    case 'stream':
      return [
        `${page.entries.length} of ${page.total} entries`,
        ...page.entries.map((e) => `${e.id}  ${e.fields.map((f) => `${shown(f.field)}=${shown(f.value)}`).join(' ')}`),
      ];
    case 'vectorset':
      return [
        `${page.members.length} sampled of ${page.total} elements, ${page.dim} dimensions (VRANDMEMBER)`,
        page.info.map((p) => `${p.name} ${p.value}`).join(', '),
        ...page.members.map((m) => `${shown(m.element)}  [${m.vector.map((n) => n.toFixed(4)).join(', ')}${m.vector.length < page.dim ? ', …' : ''}]`),
      ];
  }
}
