import { AppError } from '../../../../app/errors';
import { FIND_ELEMENT_BYTES, type FindEvent, type FoundElement } from '../../../../app/schemas/keys';
import { globMatch, literalPrefix } from '../../redis/glob';
import { keyName } from '../../text/keyText';
import { valueBytes } from '../keyRef';
import type { Pacer } from '../pace/pacer';
import { roomIn } from './download';
import { keyTypeOf } from './keyType';
import { asArray, asBuf, asNum, asText, type ValueClient } from './valueClient';

export type FindType = 'hash' | 'set' | 'zset';

export interface FindQuery {
  type: FindType;
  /** The glob's bytes (SCAN MATCH syntax). */
  match: Buffer;
  /** Matches shown at most; the rest are counted. */
  limit: number;
}

/** The part of a stream's sink a find needs. */
export interface FindSink {
  push(event: FindEvent): void;
  readonly backlog: number;
  readonly signal: AbortSignal;
}

export interface FindOptions {
  /** The node's pacer (pace/pacer.ts), opened only when the value needs walking past one call. */
  pacer(signal: AbortSignal): Promise<Pacer>;
  /** Least gap between two progress events (ms). */
  progressMs?: number;
}

/** A value this small is walked at once (one call reads a listpack whole anyway): no pacer to open. */
const UNPACED_BELOW = 1000;
/** Events allowed to wait for delivery: the walk waits for a slow client instead of letting the stream drop found elements. */
const MAX_BACKLOG = 2;
/**
 * Distinct matches remembered to count each once (HSCAN may return an element twice while the
 * table rehashes). Past it the count goes on without the check: a repeat is then counted twice.
 */
const DEDUPE_MAX = 200_000;

const LENGTH: Record<FindType, string> = { hash: 'HLEN', set: 'SCARD', zset: 'ZCARD' };
const SCAN: Record<FindType, string> = { hash: 'HSCAN', set: 'SSCAN', zset: 'ZSCAN' };

/**
 * Finds elements of a hash, set or sorted set by a glob. A glob without a wildcard names one
 * element: HGET, SISMEMBER or ZSCORE answer in one round trip (with TYPE and the length in the
 * same pipeline), however big the value. Otherwise the value is walked by HSCAN/SSCAN/ZSCAN
 * without MATCH, paced by the node's pacer, and each element matched here with Redis' own glob
 * (redis/glob.ts): a SCAN with MATCH says nothing of how many elements it passed over, and the
 * progress counts elements read against the length. The first `limit` matches are pushed as
 * they are found, the rest counted. Stops when the sink's signal aborts (the client's Stop).
 */
export async function findElements(client: ValueClient, key: Buffer, q: FindQuery, sink: FindSink, opts: FindOptions): Promise<void> {
  const { prefix, exact } = literalPrefix(q.match);
  if (exact) return lookUp(client, key, q.type, prefix, sink);
  const [type, length] = await Promise.all([client.send('TYPE', key), client.send(LENGTH[q.type], key).catch(() => null)]);
  const total = checkType(key, q.type, asText(type), length);
  const walk = new Walk(q, total);
  const progressMs = opts.progressMs ?? 100;
  let lastPush = performance.now();
  /** The elements found since the last event, with their TTLs when they are hash fields. */
  const found = async (): Promise<FoundElement[]> => {
    const batch = walk.takeFound();
    if (q.type === 'hash') await withTtls(client, key, batch);
    return batch;
  };
  const pacer = total >= UNPACED_BELOW ? await opts.pacer(sink.signal) : null;
  try {
    let cursor = '0';
    do {
      if (pacer !== null) await pacer.gate(sink.signal).catch(() => undefined);
      if (sink.signal.aborted || !(await roomIn(sink, MAX_BACKLOG, 5))) return;
      const count = pacer?.batchSize() ?? UNPACED_BELOW;
      const [next, items] = asArray(await client.send(SCAN[q.type], key, cursor, 'COUNT', count));
      cursor = asText(next);
      walk.take(asArray(items).map((b) => asBuf(b) ?? Buffer.alloc(0)));
      if (cursor !== '0' && performance.now() - lastPush >= progressMs) {
        lastPush = performance.now();
        sink.push({ kind: 'progress', ...walk.counts(), found: await found() });
      }
    } while (cursor !== '0');
    if (sink.signal.aborted) return;
    sink.push({ kind: 'done', ...walk.counts(), found: await found(), exact: false, notShown: walk.notShown() });
  } finally {
    await pacer?.close();
  }
}

/** What a walk has read and matched, and the matches not yet pushed. */
class Walk {
  private scanned = 0;
  private matched = 0;
  private shown = 0;
  private pending: FoundElement[] = [];
  private readonly seen = new Set<string>();
  private readonly pairs: boolean;

  constructor(
    private readonly q: FindQuery,
    private readonly total: number,
  ) {
    this.pairs = q.type !== 'set';
  }

  /** One SCAN reply's elements: [field, value, …] for a hash, [member, score, …] for a zset, members for a set. */
  take(items: Buffer[]): void {
    const step = this.pairs ? 2 : 1;
    for (let i = 0; i + step - 1 < items.length; i += step) {
      this.scanned++;
      const element = items[i] as Buffer;
      if (!globMatch(this.q.match, element)) continue;
      const id = element.toString('latin1');
      if (this.seen.has(id)) continue;
      if (this.seen.size < DEDUPE_MAX) this.seen.add(id);
      this.matched++;
      if (this.shown >= this.q.limit) continue;
      this.shown++;
      this.pending.push(foundElement(this.q.type, element, this.pairs ? (items[i + 1] as Buffer) : null));
    }
  }

  takeFound(): FoundElement[] {
    const found = this.pending;
    this.pending = [];
    return found;
  }

  counts(): { scanned: number; total: number; matched: number } {
    // A rehash can hand an element back twice: scanned never reads past the length.
    return { scanned: Math.min(this.scanned, this.total), total: this.total, matched: this.matched };
  }

  notShown(): number {
    return this.matched - this.shown;
  }
}

function foundElement(type: FindType, element: Buffer, second: Buffer | null): FoundElement {
  return {
    element: valueBytes(element, FIND_ELEMENT_BYTES),
    value: type === 'hash' && second !== null ? valueBytes(second, FIND_ELEMENT_BYTES) : null,
    score: type === 'zset' && second !== null ? second.toString('latin1') : null,
    ttlMs: null,
  };
}

/** One element by its exact bytes: TYPE, the lookup and the length in one pipelined round trip. */
async function lookUp(client: ValueClient, key: Buffer, type: FindType, element: Buffer, sink: FindSink): Promise<void> {
  const ttls = type === 'hash' && (await client.fieldTtls());
  const lookup: [string, ...(string | Buffer | number)[]] =
    type === 'hash' ? ['HGET', key, element] : type === 'set' ? ['SISMEMBER', key, element] : ['ZSCORE', key, element];
  const sent = [client.send('TYPE', key), client.send(...lookup), client.send(LENGTH[type], key)];
  if (ttls) sent.push(client.send('HPTTL', key, 'FIELDS', 1, element).catch(() => null));
  const [real, reply, length, ttl] = await Promise.all(sent.map((p) => p.catch((e: unknown) => e)));
  if (real instanceof Error) throw real;
  const total = checkType(key, type, asText(real), length);
  if (reply instanceof Error) throw reply;
  const found: FoundElement[] = [];
  if (type === 'set' ? asNum(reply) === 1 : reply !== null) {
    const f = foundElement(type, element, type === 'set' ? null : asBuf(reply));
    // The one element asked for by name: cut only as a page's element is, so it can be edited.
    f.element = valueBytes(element);
    if (type === 'hash') f.value = valueBytes(asBuf(reply) ?? Buffer.alloc(0));
    if (ttls) f.ttlMs = ttlOf(asArray(ttl)[0]);
    found.push(f);
  }
  sink.push({ kind: 'done', scanned: 0, total, matched: found.length, found, exact: true, notShown: 0 });
}

/** The shown fields' TTLs (HPTTL, one call), where the server has hash-field expiration. */
async function withTtls(client: ValueClient, key: Buffer, shown: FoundElement[]): Promise<void> {
  // A field shown cut is not its name: its TTL stays unknown (null), as it does without HTTL.
  const whole = shown.filter((f) => !f.element.truncated);
  if (whole.length === 0 || !(await client.fieldTtls())) return;
  const fields = whole.map((f) => Buffer.from(f.element.b64, 'base64'));
  const ttls = asArray(await client.send('HPTTL', key, 'FIELDS', fields.length, ...fields).catch(() => null));
  whole.forEach((f, i) => (f.ttlMs = ttlOf(ttls[i])));
}

/** -2 (gone since) shows as none, as a page's TTLs do. */
function ttlOf(reply: unknown): number {
  const t = asNum(reply);
  return t === null || t < 0 ? -1 : t;
}

/** The key's length, once TYPE says it holds what the find asked for. */
function checkType(key: Buffer, asked: FindType, typeReply: string, length: unknown): number {
  const real = keyTypeOf(typeReply);
  if (real.type === null) throw new AppError('NOT_FOUND', `Key ${keyName(key).text} does not exist (deleted or expired?)`, 'key');
  if (real.type !== asked) throw new AppError('VALIDATION', `type is "${asked}" but key ${keyName(key).text} is a ${real.moduleType ?? real.type}`, 'type');
  if (length instanceof Error) throw length;
  return asNum(length) ?? 0;
}
