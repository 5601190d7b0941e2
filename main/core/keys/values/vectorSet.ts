import { AppError } from '../../../../app/errors';
import type { ReadPage, ReadResult } from '../../../../app/schemas/keys';
import { commandInfoHas } from '../../pool/commandSupport';
import { keyName } from '../../text/keyText';
import { valueBytes } from '../keyRef';
import { keyTypeOf } from './keyType';
import { asArray, asBuf, asNum, asText, type ValueClient } from './valueClient';

type VectorPage = Extract<ReadPage, { type: 'vectorset' }>;
type VectorResult = Extract<ReadResult, { type: 'vectorset' }>;

/** Redis 8's vector set commands a page reads with: all of them, or no page. */
export const VECTOR_SET_COMMANDS = ['VCARD', 'VDIM', 'VINFO', 'VRANDMEMBER', 'VEMB'] as const;

/** The commands of VECTOR_SET_COMMANDS the server does not name in COMMAND INFO (one call for all five). */
export async function missingVectorCommands(client: ValueClient): Promise<string[]> {
  const reply = await client.send('COMMAND', 'INFO', ...VECTOR_SET_COMMANDS).catch(() => null);
  const rows = Array.isArray(reply) ? (reply as unknown[]) : [];
  return VECTOR_SET_COMMANDS.filter((_, i) => !commandInfoHas([rows[i]]));
}

/** VINFO's flat name/value array ("quant-type", "int8", "vector-dim", 300, …) as pairs, values as text. */
export function vinfoPairs(reply: unknown): { name: string; value: string }[] {
  const flat = asArray(reply);
  const out: { name: string; value: string }[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ name: asText(flat[i]), value: asText(flat[i + 1]) });
  return out;
}

/** VEMB's reply (real numbers as bulk strings in RESP2), the first `dims` of them. */
export function vembNumbers(reply: unknown, dims: number): number[] {
  return asArray(reply)
    .slice(0, dims)
    .map((n) => asNum(n) ?? Number.NaN)
    .filter((n) => Number.isFinite(n));
}

/**
 * A page of a vector set: VCARD, VDIM, VINFO and VRANDMEMBER with a positive count (distinct
 * elements, at most the set's size) in one round trip, then each element's VEMB in a second,
 * every vector cut to `page.dims`. Asked only of a server whose COMMAND INFO names all five
 * commands; elsewhere UNSUPPORTED, naming what is missing, and the key keeps its type, memory
 * and DUMP size view.
 */
export async function readVectorSet(client: ValueClient, key: Buffer, page: VectorPage): Promise<VectorResult> {
  const missing = await missingVectorCommands(client);
  if (missing.length > 0) {
    throw new AppError('UNSUPPORTED', `This server has no ${missing.join(', ')} (Redis 8's vector set commands): a vector set's elements cannot be read here`);
  }
  const [type, card, dim, info, sample] = await Promise.all([
    client.send('TYPE', key),
    client.send('VCARD', key),
    client.send('VDIM', key),
    client.send('VINFO', key),
    client.send('VRANDMEMBER', key, page.count),
  ]);
  const real = keyTypeOf(asText(type));
  if (real.type === null) throw new AppError('NOT_FOUND', `Key ${keyName(key).text} does not exist (deleted or expired?)`, 'key');
  if (real.moduleType !== 'vectorset')
    throw new AppError('VALIDATION', `page.type is "vectorset" but key ${keyName(key).text} is a ${real.moduleType ?? real.type}`, 'page.type');
  const elements = asArray(sample).map((e) => asBuf(e) ?? Buffer.alloc(0));
  // An element removed between VRANDMEMBER and VEMB answers nil: it shows with no numbers.
  const vectors = await Promise.all(elements.map((e) => client.send('VEMB', key, e).catch(() => null)));
  return {
    type: 'vectorset',
    total: asNum(card) ?? 0,
    dim: asNum(dim) ?? 0,
    info: vinfoPairs(info),
    members: elements.map((e, i) => ({ element: valueBytes(e), vector: vembNumbers(vectors[i], page.dims) })),
  };
}
