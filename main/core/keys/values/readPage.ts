import { AppError } from '../../../../app/errors';
import type { ReadPage, ReadResult } from '../../../../app/schemas/keys';
import { keyName } from '../../text/keyText';
import { keyTypeOf } from './keyType';
import { PageCutter } from './pageCutter';
import { valueBytes } from '../keyRef';
import { asArray, asBuf, asNum, asText, type ValueClient } from './valueClient';
import { readVectorSet } from './vectorSet';

type Page<T extends ReadPage['type']> = Extract<ReadPage, { type: T }>;
type Result<T extends ReadPage['type']> = Extract<ReadResult, { type: T }>;
/** The pages of the six native types, read by one command and a length command each. */
type NativePage = Exclude<ReadPage, { type: 'vectorset' }>;
type Arg = string | Buffer | number;
type Command = [string, ...Arg[]];

/**
 * One bounded page of a value. Every command here is bounded by the page: GETRANGE (never
 * GET), HSCAN/SSCAN with COUNT (never HGETALL/SMEMBERS), LRANGE of `count` items (never
 * 0 -1), ZRANGE with a rank window or LIMIT, XRANGE/XREVRANGE with COUNT. TYPE goes in the
 * same round trip, so a page asked of the wrong type is refused naming `page.type` and the
 * key's real type, and a missing key is NOT_FOUND on `key`.
 */
export async function readPage(client: ValueClient, key: Buffer, page: ReadPage): Promise<ReadResult> {
  if (page.type === 'vectorset') return readVectorSet(client, key, page);
  const [readCmd, totalCmd] = commands(key, page);
  const [type, read, total] = await Promise.allSettled([client.send('TYPE', key), client.send(...readCmd), client.send(...totalCmd)]);
  if (type.status === 'rejected') throw type.reason;
  const real = keyTypeOf(asText(type.value));
  if (real.type === null) throw new AppError('NOT_FOUND', `Key ${keyName(key).text} does not exist (deleted or expired?)`, 'key');
  if (real.type !== page.type) throw wrongType(key, page.type, real.moduleType ?? real.type);
  if (read.status === 'rejected') throw refusal(read.reason, key, page);
  if (total.status === 'rejected') throw refusal(total.reason, key, page);
  const result = shape(page, read.value, asNum(total.value) ?? 0);
  if (result.type === 'hash') await withFieldTtls(client, key, read.value, result);
  return result;
}

/**
 * A hash page's fields' TTLs (HPTTL, one call for the page's fields) where the server has
 * hash-field expiration; null each where it has not. -2 (reclaimed since the HSCAN) shows as
 * none: the field is gone, and the next page read drops it.
 */
async function withFieldTtls(client: ValueClient, key: Buffer, reply: unknown, page: Result<'hash'>): Promise<void> {
  if (page.entries.length === 0 || !(await client.fieldTtls())) return;
  const { items } = scanReply(reply);
  const fields = items.filter((_, i) => i % 2 === 0);
  const ttls = asArray(await client.send('HPTTL', key, 'FIELDS', fields.length, ...fields));
  page.entries.forEach((e, i) => {
    const t = asNum(ttls[i]);
    e.ttlMs = t === null || t < 0 ? -1 : t;
  });
}

function wrongType(key: Buffer, asked: string, real: string): AppError {
  return new AppError('VALIDATION', `page.type is "${asked}" but key ${keyName(key).text} is a ${real}: ask for a ${real} page`, 'page.type');
}

/** A Redis refusal of the page's own arguments, on the field that caused it. */
function refusal(e: unknown, key: Buffer, page: NativePage): unknown {
  const msg = e instanceof Error ? e.message : String(e);
  // The key changed type between TYPE and the read.
  if (/WRONGTYPE/.test(msg))
    return new AppError('VALIDATION', `page.type is "${page.type}" but key ${keyName(key).text} no longer holds a ${page.type}; reopen it`, 'page.type');
  if (/invalid cursor/i.test(msg)) return new AppError('VALIDATION', 'page.cursor is not a cursor Redis gave: start again from "0"', 'page.cursor');
  if (/min or max is not a float/i.test(msg))
    return new AppError('VALIDATION', 'page.min and page.max must be scores: a number, "(" before one to exclude it, "-inf" or "+inf"', 'page.min');
  if (/Invalid stream ID/i.test(msg))
    return new AppError('VALIDATION', 'page.start and page.end must be stream IDs ("1700000000000-0", "1700000000000"), "-" or "+"', 'page.start');
  return e;
}

/** The page's read command, then the value's length command (its `total`). */
function commands(key: Buffer, page: NativePage): [Command, Command] {
  switch (page.type) {
    case 'string':
      // GETRANGE's end is inclusive; a window past the end returns what there is.
      return [
        ['GETRANGE', key, page.offset, page.offset + page.length - 1],
        ['STRLEN', key],
      ];
    case 'hash':
      return [
        ['HSCAN', key, page.cursor, ...matchArgs(page.match), 'COUNT', page.count],
        ['HLEN', key],
      ];
    case 'set':
      return [
        ['SSCAN', key, page.cursor, ...matchArgs(page.match), 'COUNT', page.count],
        ['SCARD', key],
      ];
    case 'list':
      // From the end: the window [-(start+count), -(start+1)], which LRANGE clamps at the head.
      return page.fromEnd
        ? [
            ['LRANGE', key, -(page.start + page.count), -(page.start + 1)],
            ['LLEN', key],
          ]
        : [
            ['LRANGE', key, page.start, page.start + page.count - 1],
            ['LLEN', key],
          ];
    case 'zset':
      return [
        ['ZRANGE', key, ...zsetArgs(page)],
        ['ZCARD', key],
      ];
    case 'stream':
      return page.rev
        ? [
            ['XREVRANGE', key, page.end, page.start, 'COUNT', page.count],
            ['XLEN', key],
          ]
        : [
            ['XRANGE', key, page.start, page.end, 'COUNT', page.count],
            ['XLEN', key],
          ];
  }
}

function matchArgs(match: string | undefined): Arg[] {
  return match === undefined ? [] : ['MATCH', Buffer.from(match, 'base64')];
}

function zsetArgs(page: Page<'zset'>): Arg[] {
  const rev = page.rev ? ['REV'] : [];
  if (page.by === 'rank') return [page.start, page.start + page.count - 1, ...rev, 'WITHSCORES'];
  // BYSCORE … REV takes max before min.
  const [from, to] = page.rev ? [page.max, page.min] : [page.min, page.max];
  return [from, to, 'BYSCORE', ...rev, 'LIMIT', page.start, page.count, 'WITHSCORES'];
}

function shape(page: NativePage, reply: unknown, total: number): ReadResult {
  switch (page.type) {
    case 'string':
      return stringPage(page, reply, total);
    case 'hash':
      return hashPage(reply, total);
    case 'set':
      return setPage(reply, total);
    case 'list':
      return listPage(page, reply, total);
    case 'zset':
      return zsetPage(page, reply, total);
    case 'stream':
      return streamPage(reply, total);
  }
}

function stringPage(page: Page<'string'>, reply: unknown, total: number): Result<'string'> {
  const data = asBuf(reply) ?? Buffer.alloc(0);
  return { type: 'string', offset: page.offset, data: valueBytes(data, page.length), total };
}

/** A SCAN-family reply: the next cursor and the flat elements. */
function scanReply(reply: unknown): { cursor: string; items: Buffer[] } {
  const [cursor, items] = asArray(reply);
  return { cursor: asText(cursor), items: asArray(items).map((b) => asBuf(b) ?? Buffer.alloc(0)) };
}

function hashPage(reply: unknown, total: number): Result<'hash'> {
  const { cursor, items } = scanReply(reply);
  const cut = new PageCutter();
  const entries: Result<'hash'>['entries'] = [];
  for (let i = 0; i + 1 < items.length; i += 2) entries.push({ field: cut.cut(items[i] as Buffer), value: cut.cut(items[i + 1] as Buffer), ttlMs: null });
  return { type: 'hash', entries, cursor, total };
}

function setPage(reply: unknown, total: number): Result<'set'> {
  const { cursor, items } = scanReply(reply);
  const cut = new PageCutter();
  return { type: 'set', members: items.map((m) => cut.cut(m)), cursor, total };
}

/** Items in list order (head to tail) with their real indexes, whichever end the page was read from. */
function listPage(page: Page<'list'>, reply: unknown, total: number): Result<'list'> {
  const values = asArray(reply).map((b) => asBuf(b) ?? Buffer.alloc(0));
  // From the end, the last item read is at total - 1 - start; LLEN came in the same round trip.
  const first = page.fromEnd ? total - page.start - values.length : page.start;
  const cut = new PageCutter();
  return { type: 'list', items: values.map((v, i) => ({ index: first + i, value: cut.cut(v) })), total };
}

function zsetPage(page: Page<'zset'>, reply: unknown, total: number): Result<'zset'> {
  const flat = asArray(reply);
  const cut = new PageCutter();
  const members: Result<'zset'>['members'] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    members.push({
      // By rank, REV counts from the highest score, as ZREVRANK does.
      rank: page.by === 'rank' ? page.start + i / 2 : null,
      member: cut.cut(asBuf(flat[i]) ?? Buffer.alloc(0)),
      score: asText(flat[i + 1]),
    });
  }
  return { type: 'zset', members, total };
}

function streamPage(reply: unknown, total: number): Result<'stream'> {
  const cut = new PageCutter();
  const entries = asArray(reply).map((e) => {
    const [id, fields] = asArray(e);
    const flat = asArray(fields).map((b) => asBuf(b) ?? Buffer.alloc(0));
    const pairs: Result<'stream'>['entries'][number]['fields'] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) pairs.push({ field: cut.cut(flat[i] as Buffer), value: cut.cut(flat[i + 1] as Buffer) });
    return { id: asText(id), fields: pairs };
  });
  return { type: 'stream', entries, total };
}
