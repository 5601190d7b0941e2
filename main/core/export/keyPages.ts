import type { ValueClient } from '../keys';
import { asArray, asBuf, asNum, asText, keyTypeOf } from '../keys';

/** A string longer than this is written in parts of this size (APPENDed on load): a part is one line. */
export const STRING_PART_BYTES = 1 << 20;
/** Elements asked per page of an aggregate (HSCAN/SSCAN/ZSCAN COUNT, LRANGE and XRANGE sizes). */
export const PAGE_ELEMENTS = 500;

export type ExportType = 'string' | 'hash' | 'list' | 'set' | 'zset' | 'stream';

/**
 * One page of a key's value, as the formats write it: a string's bytes, or an aggregate's
 * elements. zset scores and stream ids are ASCII text as Redis sends them.
 */
export type ValuePage =
  | { type: 'string'; bytes: Buffer }
  | { type: 'hash'; pairs: Buffer[] }
  | { type: 'list' | 'set'; items: Buffer[] }
  | { type: 'zset'; pairs: Buffer[] }
  | { type: 'stream'; entries: Array<{ id: string; fields: Buffer[] }> };

/** What a key turned out to be when it was read: gone, of a type no readable format holds, or its pages. */
export type KeyRead =
  { kind: 'vanished' } | { kind: 'unsupported'; type: string } | { kind: 'pages'; type: ExportType; pttl: number; pages: AsyncGenerator<ValuePage> };

/**
 * A key's type and remaining TTL (one round trip), and its value page by page: never the whole
 * of a big value at once (HSCAN, SSCAN, ZSCAN, LRANGE, XRANGE, GETRANGE windows). A key that
 * changes while it is paged is exported as the pages saw it, as SCAN-based tools do.
 */
export async function readKey(client: ValueClient, key: Buffer): Promise<KeyRead> {
  const [typeReply, pttlReply] = await Promise.all([client.send('TYPE', key), client.send('PTTL', key)]);
  const { type, moduleType } = keyTypeOf(asText(typeReply));
  if (type === null) return { kind: 'vanished' };
  if (type === 'other') return { kind: 'unsupported', type: moduleType ?? 'other' };
  const pttl = asNum(pttlReply) ?? -1;
  if (pttl === -2) return { kind: 'vanished' };
  return { kind: 'pages', type, pttl, pages: pagesOf(client, key, type) };
}

async function* pagesOf(client: ValueClient, key: Buffer, type: ExportType): AsyncGenerator<ValuePage> {
  switch (type) {
    case 'string':
      return yield* stringPages(client, key);
    case 'hash':
    case 'set':
    case 'zset':
      return yield* scanPages(client, key, type);
    case 'list':
      return yield* listPages(client, key);
    case 'stream':
      return yield* streamPages(client, key);
  }
}

async function* stringPages(client: ValueClient, key: Buffer): AsyncGenerator<ValuePage> {
  const total = asNum(await client.send('STRLEN', key)) ?? 0;
  if (total <= STRING_PART_BYTES) {
    yield { type: 'string', bytes: asBuf(await client.send('GET', key)) ?? Buffer.alloc(0) };
    return;
  }
  // Never GETRANGE 0 -1 on a long value: each window is bounded, so is memory.
  for (let at = 0; at < total; at += STRING_PART_BYTES) {
    const bytes = asBuf(await client.send('GETRANGE', key, at, Math.min(total, at + STRING_PART_BYTES) - 1)) ?? Buffer.alloc(0);
    if (bytes.length === 0) return;
    yield { type: 'string', bytes };
  }
}

const SCAN_COMMAND = { hash: 'HSCAN', set: 'SSCAN', zset: 'ZSCAN' } as const;

async function* scanPages(client: ValueClient, key: Buffer, type: 'hash' | 'set' | 'zset'): AsyncGenerator<ValuePage> {
  let cursor = '0';
  do {
    const [next, items] = asArray(await client.send(SCAN_COMMAND[type], key, cursor, 'COUNT', PAGE_ELEMENTS));
    cursor = asText(next);
    const bufs = asArray(items).map((b) => asBuf(b) ?? Buffer.alloc(0));
    if (bufs.length === 0) continue;
    // SCAN may return an element twice (a rehash between calls): harmless, a load sets it twice.
    yield type === 'set' ? { type, items: bufs } : { type, pairs: bufs };
  } while (cursor !== '0');
}

async function* listPages(client: ValueClient, key: Buffer): AsyncGenerator<ValuePage> {
  for (let at = 0; ; at += PAGE_ELEMENTS) {
    const items = asArray(await client.send('LRANGE', key, at, at + PAGE_ELEMENTS - 1)).map((b) => asBuf(b) ?? Buffer.alloc(0));
    if (items.length > 0) yield { type: 'list', items };
    if (items.length < PAGE_ELEMENTS) return;
  }
}

async function* streamPages(client: ValueClient, key: Buffer): AsyncGenerator<ValuePage> {
  let start = '-';
  for (;;) {
    const reply = asArray(await client.send('XRANGE', key, start, '+', 'COUNT', PAGE_ELEMENTS));
    const entries = reply.map((e) => {
      const [id, fields] = asArray(e);
      return { id: asText(id), fields: asArray(fields).map((b) => asBuf(b) ?? Buffer.alloc(0)) };
    });
    if (entries.length > 0) yield { type: 'stream', entries };
    const last = entries.at(-1);
    if (last === undefined || entries.length < PAGE_ELEMENTS) return;
    // An exclusive range start (Redis 6.2+): the page after the last id read.
    start = `(${last.id}`;
  }
}
