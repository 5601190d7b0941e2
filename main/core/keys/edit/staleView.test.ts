import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { seenOf } from '../../../../app/schemas/keys';
import { DIGEST_MAX_ELEMENTS } from '../values/valueDigest';
import { b64, openKey, refusal, useEditPair, type EditPair } from './editTestKit';

/*
 * Issue 29 item 3: every edit carries what the view showed of the key, and a second client's
 * write between the view's open and the edit makes the edit a CONFLICT, whatever it changed:
 * the value (even keeping its length), another element, the TTL.
 */

const pair = useEditPair();
const edit: EditPair['edit'] = (key, op) => pair.edit(key, op);

interface Case {
  name: string;
  /** The key as the view opens it. */
  before(r: Redis): Promise<unknown>;
  /** The second client's write after the open. */
  between(r: Redis): Promise<unknown>;
  op: Record<string, unknown>;
  /** What the key holds after the refused edit: the second client's write, untouched. */
  after(r: Redis): Promise<unknown>;
  expected: unknown;
}

const sha1 = (v: string) => createHash('sha1').update(v).digest('hex');
const dump = async (r: Redis) => [await r.type('k'), (await r.pttl('k')) >= 0 ? 'ttl' : 'no ttl'];

const cases: Case[] = [
  // The issue's own case: the new value would be gone.
  {
    name: 'delete of a string set again',
    before: (r) => r.set('k', 'old'),
    between: (r) => r.set('k', 'NEW-IMPORTANT'),
    op: { op: 'delete' },
    after: (r) => r.get('k'),
    expected: 'NEW-IMPORTANT',
  },
  {
    name: 'delete of a string set again to the same length',
    before: (r) => r.set('k', 'old'),
    between: (r) => r.set('k', 'new'),
    op: { op: 'delete' },
    after: (r) => r.get('k'),
    expected: 'new',
  },
  {
    name: 'rename of a string set again',
    before: (r) => r.set('k', 'old'),
    between: (r) => r.set('k', 'NEW'),
    op: { op: 'rename', to: b64('k2') },
    after: async (r) => [await r.get('k'), await r.exists('k2')],
    expected: ['NEW', 0],
  },
  {
    name: 'delete of a hash whose other field changed',
    before: (r) => r.hset('k', 'a', '1', 'b', '2'),
    between: (r) => r.hset('k', 'b', '3'),
    op: { op: 'delete' },
    after: (r) => r.hget('k', 'b'),
    expected: '3',
  },
  {
    name: 'ttl.set after a PERSIST',
    before: (r) => r.set('k', 'v', 'EX', 100),
    between: (r) => r.persist('k'),
    op: { op: 'ttl.set', ttlSeconds: 5 },
    after: (r) => r.ttl('k'),
    expected: -1,
  },
  {
    name: 'ttl.set after an EXPIRE of a key without TTL',
    before: (r) => r.set('k', 'v'),
    between: (r) => r.expire('k', 1000),
    op: { op: 'ttl.set', ttlSeconds: 5 },
    after: async (r) => (await r.ttl('k')) > 900,
    expected: true,
  },
  {
    name: 'ttl.remove after a PERSIST and a new value',
    before: (r) => r.set('k', 'v', 'EX', 100),
    between: (r) => r.set('k', 'w', 'EX', 100),
    op: { op: 'ttl.remove' },
    after: dump,
    expected: ['string', 'ttl'],
  },
  {
    name: 'string.set after a same-length write',
    before: (r) => r.set('k', 'AAAA'),
    between: (r) => r.set('k', 'BBBB'),
    op: { op: 'string.set', value: b64('mine'), expectSha1: sha1('AAAA') },
    after: (r) => r.get('k'),
    expected: 'BBBB',
  },
  // The issue's: AAAA, another client writes BBBB, the append gave BBBBX.
  {
    name: 'string.append after a same-length write',
    before: (r) => r.set('k', 'AAAA'),
    between: (r) => r.set('k', 'BBBB'),
    op: { op: 'string.append', value: b64('X') },
    after: (r) => r.get('k'),
    expected: 'BBBB',
  },
  {
    name: 'hash.set while another field changed',
    before: (r) => r.hset('k', 'f', 'v', 'g', '1'),
    between: (r) => r.hset('k', 'g', '2'),
    op: { op: 'hash.set', field: b64('f'), value: b64('mine'), expectValue: b64('v') },
    after: (r) => r.hgetall('k'),
    expected: { f: 'v', g: '2' },
  },
  {
    name: 'hash.delete after a field was added',
    before: (r) => r.hset('k', 'f', 'v'),
    between: (r) => r.hset('k', 'n', 'new'),
    op: { op: 'hash.delete', field: b64('f'), expectValue: b64('v') },
    after: (r) => r.hgetall('k'),
    expected: { f: 'v', n: 'new' },
  },
  {
    name: 'list.set after another item changed',
    before: (r) => r.rpush('k', 'a', 'b'),
    between: (r) => r.lset('k', 1, 'B'),
    op: { op: 'list.set', index: 0, value: b64('x'), expectValue: b64('a') },
    after: (r) => r.lrange('k', 0, -1),
    expected: ['a', 'B'],
  },
  {
    name: 'list.push after a pop',
    before: (r) => r.rpush('k', 'a', 'b'),
    between: (r) => r.rpop('k'),
    op: { op: 'list.push', value: b64('x'), end: 'tail' },
    after: (r) => r.lrange('k', 0, -1),
    expected: ['a'],
  },
  {
    name: 'list.remove after another item changed',
    before: (r) => r.rpush('k', 'a', 'b'),
    between: (r) => r.lset('k', 1, 'B'),
    op: { op: 'list.remove', index: 0, expectValue: b64('a') },
    after: (r) => r.lrange('k', 0, -1),
    expected: ['a', 'B'],
  },
  {
    name: 'set.add after a member was swapped',
    before: (r) => r.sadd('k', 'a', 'b'),
    between: (r) => r.multi().srem('k', 'b').sadd('k', 'c').exec(),
    op: { op: 'set.add', member: b64('x') },
    after: async (r) => (await r.smembers('k')).sort(),
    expected: ['a', 'c'],
  },
  {
    name: 'set.remove after a member was added',
    before: (r) => r.sadd('k', 'a', 'b'),
    between: (r) => r.sadd('k', 'c'),
    op: { op: 'set.remove', member: b64('a') },
    after: async (r) => (await r.smembers('k')).sort(),
    expected: ['a', 'b', 'c'],
  },
  {
    name: "zset.add while another member's score changed",
    before: (r) => r.zadd('k', 1, 'a', 2, 'b'),
    between: (r) => r.zadd('k', 5, 'b'),
    op: { op: 'zset.add', member: b64('a'), score: '9', expectScore: '1' },
    after: (r) => r.zrange('k', 0, -1, 'WITHSCORES'),
    expected: ['a', '1', 'b', '5'],
  },
  {
    name: 'zset.incr after a TTL was set',
    before: (r) => r.zadd('k', 1, 'a'),
    between: (r) => r.expire('k', 1000),
    op: { op: 'zset.incr', member: b64('a'), by: '1' },
    after: (r) => r.zscore('k', 'a'),
    expected: '1',
  },
  {
    name: 'zset.remove after a member was added',
    before: (r) => r.zadd('k', 1, 'a'),
    between: (r) => r.zadd('k', 2, 'b'),
    op: { op: 'zset.remove', member: b64('a') },
    after: (r) => r.zcard('k'),
    expected: 2,
  },
  {
    name: 'stream.add after an entry was added',
    before: (r) => r.xadd('k', '1-0', 'f', 'v'),
    between: (r) => r.xadd('k', '2-0', 'f', 'v'),
    op: { op: 'stream.add', fields: [{ field: b64('g'), value: b64('w') }] },
    after: (r) => r.xlen('k'),
    expected: 2,
  },
  {
    name: 'stream.delete after an entry was added',
    before: (r) => r.xadd('k', '1-0', 'f', 'v'),
    between: (r) => r.xadd('k', '2-0', 'f', 'v'),
    op: { op: 'stream.delete', id: '1-0' },
    after: (r) => r.xlen('k'),
    expected: 2,
  },
];

describe('a second client writes between the open and the edit', () => {
  it.each(cases)('$name: CONFLICT, and the write stays', async (c) => {
    await c.before(pair.other);
    const seen = await openKey(pair.mine, 'k');
    await c.between(pair.other);
    const e = await refusal(edit('k', { ...c.op, seen }));
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toMatch(/^changed since you opened it: /);
    expect(await c.after(pair.other)).toEqual(c.expected);
  });

  it.each(cases)('$name: goes through when nobody wrote in between', async (c) => {
    await c.before(pair.other);
    const seen = await openKey(pair.mine, 'k');
    await edit('k', { ...c.op, seen });
  });
});

describe('what each check says', () => {
  it('names the length, the TTL or the value that changed', async () => {
    await pair.other.set('k', 'AAAA', 'EX', 100);
    let seen = await openKey(pair.mine, 'k');
    await pair.other.append('k', 'B');
    expect((await refusal(edit('k', { op: 'delete', seen }))).message).toMatch(/its length is 5 now, the view showed 4/);
    seen = await openKey(pair.mine, 'k');
    await pair.other.persist('k');
    expect((await refusal(edit('k', { op: 'delete', seen }))).message).toMatch(/its TTL was removed/);
    seen = await openKey(pair.mine, 'k');
    await pair.other.setrange('k', 0, 'Z');
    expect((await refusal(edit('k', { op: 'delete', seen }))).message).toMatch(/its value changed/);
    expect(await pair.other.get('k')).toBe('ZAAAB');
  });

  it('a value too big to digest on each edit is checked by its length and the element edited; the view says no digest', async () => {
    const fields = Array.from({ length: DIGEST_MAX_ELEMENTS + 1 }, (_, i) => [`f${i}`, 'v']).flat();
    await pair.other.hset('k', ...fields);
    const seen = await openKey(pair.mine, 'k');
    expect(seen).toMatchObject({ type: 'hash', length: DIGEST_MAX_ELEMENTS + 1, ttl: 'none', digest: null });
    await pair.other.hset('k', 'new', 'v');
    await refusal(edit('k', { op: 'hash.set', field: b64('f0'), value: b64('x'), expectValue: b64('v'), seen }));
    expect(await pair.other.hget('k', 'f0')).toBe('v');
  });

  it('a stream is not digested, so a consumer reading is no conflict', async () => {
    await pair.other.xadd('k', '1-0', 'f', 'v');
    await pair.other.xadd('k', '2-0', 'f', 'v');
    await pair.other.xgroup('CREATE', 'k', 'g', '0');
    const seen = await openKey(pair.mine, 'k');
    expect(seen.digest).toBeNull();
    await pair.other.xreadgroup('GROUP', 'g', 'c', 'COUNT', 1, 'STREAMS', 'k', '>');
    await edit('k', { op: 'stream.delete', id: '2-0', seen });
    expect(await pair.other.xlen('k')).toBe(1);
  });

  it.each([
    ['hash', (i: number) => ({ op: 'hash.set', field: b64(`f${i}`), value: b64('v'), expectValue: null })],
    ['set', (i: number) => ({ op: 'set.add', member: b64(`m${i}-${'x'.repeat(70)}`) })],
  ])('edits one after another of a %s stored as a hash table are no conflict while Redis rehashes it as it grows', async (type, add) => {
    // Members over 64 bytes make Redis store the value as a hash table, whose iteration order
    // moves during the incremental rehash that follows each growth (Redis rehashes a value's
    // table only as it is used, never in the background): a digest of DUMP moved with it.
    if (type === 'hash') await pair.other.hset('k', { name: 'ann', city: 'Oslo', long: 'x'.repeat(20_000) });
    else await pair.other.sadd('k', 'x'.repeat(100));
    expect(await pair.other.object('ENCODING', 'k')).toBe('hashtable');
    let seen = await openKey(pair.mine, 'k');
    for (let i = 0; i < 20; i++) {
      // A read between two edits (the view's own, or any client's) moves a rehash that the
      // previous edit's growth started: a lookup in a hash table takes a rehash step.
      if (type === 'hash') await pair.other.hget('k', 'city');
      else await pair.other.sismember('k', 'x');
      const { meta } = await edit('k', { ...add(i), seen });
      const next = seenOf(meta);
      if (next === null) throw new Error('the key is gone');
      seen = next;
    }
    expect(type === 'hash' ? await pair.other.hlen('k') : await pair.other.scard('k')).toBe(type === 'hash' ? 23 : 21);
  });

  it("refuses a seen type that is not the op's", async () => {
    await pair.other.set('k', 'v');
    const seen = await openKey(pair.mine, 'k');
    expect(await refusal(edit('k', { op: 'hash.delete', field: b64('f'), expectValue: b64('v'), seen }))).toMatchObject({
      code: 'VALIDATION',
      field: 'edit.seen.type',
    });
  });
});
