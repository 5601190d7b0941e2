import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { b64, openKey, refusal, useEditPair, type EditPair } from './editTestKit';

const pair = useEditPair();
const edit: EditPair['edit'] = (key, op) => pair.edit(key, op);

const sha1 = (v: string | Buffer) => createHash('sha1').update(v).digest('hex');

/** A refusal for a stale view: CONFLICT, saying so and what changed. */
async function stale(p: Promise<unknown>, what: RegExp): Promise<void> {
  const e = await refusal(p);
  expect(e.code).toBe('CONFLICT');
  expect(e.message).toMatch(/^changed since you opened it: /);
  expect(e.message).toMatch(what);
  expect(e.message).toMatch(/reload the key and try again$/);
}

describe('create', () => {
  const firsts = [
    { type: 'string', value: b64('v') },
    { type: 'hash', field: b64('f'), value: b64('v') },
    { type: 'list', value: b64('v') },
    { type: 'set', value: b64('v') },
    { type: 'zset', value: b64('v'), score: '2.5' },
    { type: 'stream', field: b64('f'), value: b64('v') },
  ];
  it.each(firsts)('makes a $type with its first element and its TTL', async (first) => {
    const { key, meta } = await edit('new', { op: 'create', ttlSeconds: 100, ...first });
    expect(key).toMatchObject({ text: 'new', b64: b64('new') });
    expect(meta).toMatchObject({ exists: true, type: first.type, length: 1 });
    expect(await pair.other.type('new')).toBe(first.type);
    const ttl = await pair.other.pttl('new');
    expect(ttl).toBeGreaterThan(90_000);
    expect(ttl).toBeLessThanOrEqual(100_000);
    if (first.type === 'zset') expect(await pair.other.zscore('new', 'v')).toBe('2.5');
    if (first.type === 'hash') expect(await pair.other.hget('new', 'f')).toBe('v');
  });

  it('without a TTL leaves none', async () => {
    const { meta } = await edit('plain', { op: 'create', type: 'string', value: b64('v') });
    expect(meta.ttlMs).toBe(-1);
  });

  it('refuses a name taken (by a second client, after the view) and leaves that key alone', async () => {
    await pair.other.rpush('taken', 'theirs');
    const e = await refusal(edit('taken', { op: 'create', type: 'string', value: b64('mine'), ttlSeconds: 5 }));
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toMatch(/a key with this name exists \(list\)/);
    expect(await pair.other.lrange('taken', 0, -1)).toEqual(['theirs']);
    expect(await pair.other.pttl('taken')).toBe(-1);
  });

  it("names the part a type needs, or doesn't take", async () => {
    expect(await refusal(edit('k', { op: 'create', type: 'hash', value: b64('v') }))).toMatchObject({ code: 'VALIDATION', field: 'edit.field' });
    expect(await refusal(edit('k', { op: 'create', type: 'zset', value: b64('v') }))).toMatchObject({ code: 'VALIDATION', field: 'edit.score' });
    expect(await refusal(edit('k', { op: 'create', type: 'set', value: b64('v'), score: '1' }))).toMatchObject({ code: 'VALIDATION', field: 'edit.score' });
    expect(await pair.other.exists('k')).toBe(0);
  });
});

describe('strings', () => {
  it('set replaces a value the view loaded whole, and keeps its TTL', async () => {
    const old = Buffer.from([0xff, 0x00, 0x0d, 0x0a]);
    await pair.other.set('s', old, 'EX', 500);
    const { meta } = await edit('s', { op: 'string.set', value: b64('new'), expectSha1: sha1(old) });
    expect(await pair.other.get('s')).toBe('new');
    expect(meta.ttlMs).toBeGreaterThan(400_000);
  });

  it('set from a stale view: a second client changed the value, or the type, or deleted it', async () => {
    await pair.other.set('s', 'seen');
    await pair.other.set('s', 'theirs');
    await stale(edit('s', { op: 'string.set', value: b64('mine'), expectSha1: sha1('seen') }), /the value changed/);
    expect(await pair.other.get('s')).toBe('theirs');
    const seen = await openKey(pair.mine, 's');
    await pair.other.del('s');
    await pair.other.hset('s', 'f', 'v');
    await stale(edit('s', { op: 'string.set', value: b64('mine'), expectSha1: sha1('theirs'), seen }), /it is a hash now, not a string/);
    await pair.other.del('s');
    await stale(edit('s', { op: 'string.set', value: b64('mine'), expectSha1: sha1('theirs'), seen }), /the key no longer exists/);
    expect(await pair.other.exists('s')).toBe(0);
  });

  it('set refuses a value grown past what a view loads whole without reading it', async () => {
    await pair.other.set('big', Buffer.alloc(1024 * 1024 + 1));
    await stale(edit('big', { op: 'string.set', value: b64('x'), expectSha1: sha1('') }), /the value is 1048577 bytes now/);
  });

  it('append needs the length the view showed', async () => {
    await pair.other.set('s', 'abc');
    await edit('s', { op: 'string.append', value: b64('d') });
    expect(await pair.other.get('s')).toBe('abcd');
    const seen = await openKey(pair.mine, 's');
    await pair.other.append('s', 'e');
    await stale(edit('s', { op: 'string.append', value: b64('!'), seen }), /its length is 5 now, the view showed 4/);
    expect(await pair.other.get('s')).toBe('abcde');
  });
});

describe('hashes', () => {
  it('set adds a field the view did not have, unless a second client added it first', async () => {
    await pair.other.hset('h', 'a', '1');
    await edit('h', { op: 'hash.set', field: b64('b'), value: b64('2'), expectValue: null });
    expect(await pair.other.hget('h', 'b')).toBe('2');
    await pair.other.hset('h', 'c', 'theirs');
    await stale(edit('h', { op: 'hash.set', field: b64('c'), value: b64('mine'), expectValue: null }), /the field exists now/);
    expect(await pair.other.hget('h', 'c')).toBe('theirs');
  });

  it("set and delete check the field's value the view showed", async () => {
    await pair.other.hset('h', 'f', 'seen');
    await edit('h', { op: 'hash.set', field: b64('f'), value: b64('mine'), expectValue: b64('seen') });
    expect(await pair.other.hget('h', 'f')).toBe('mine');
    await pair.other.hset('h', 'f', 'theirs');
    await stale(edit('h', { op: 'hash.set', field: b64('f'), value: b64('x'), expectValue: b64('mine') }), /the field's value changed/);
    await stale(edit('h', { op: 'hash.delete', field: b64('f'), expectValue: b64('mine') }), /the field's value changed/);
    expect(await pair.other.hget('h', 'f')).toBe('theirs');
    await pair.other.hdel('h', 'f');
    await pair.other.hset('h', 'g', '1');
    await stale(edit('h', { op: 'hash.delete', field: b64('f'), expectValue: b64('theirs') }), /the field no longer exists/);
    await edit('h', { op: 'hash.delete', field: b64('g'), expectValue: b64('1') });
    // Its last field gone, the hash is gone.
    expect(await pair.other.exists('h')).toBe(0);
  });
});

describe('lists', () => {
  it('push to either end; a list deleted since is not recreated', async () => {
    await pair.other.rpush('l', 'm');
    await edit('l', { op: 'list.push', value: b64('h'), end: 'head' });
    const { meta } = await edit('l', { op: 'list.push', value: b64('t'), end: 'tail' });
    expect(await pair.other.lrange('l', 0, -1)).toEqual(['h', 'm', 't']);
    expect(meta.length).toBe(3);
    await pair.other.del('l');
    await stale(edit('l', { op: 'list.push', value: b64('x'), end: 'tail' }), /the key no longer exists/);
    expect(await pair.other.exists('l')).toBe(0);
  });

  it('set at an index checks the item shown there; a second client pushing shifts it', async () => {
    await pair.other.rpush('l', 'a', 'b', 'c');
    await edit('l', { op: 'list.set', index: 1, value: b64('B'), expectValue: b64('b') });
    await edit('l', { op: 'list.set', index: -1, value: b64('C'), expectValue: b64('c') });
    expect(await pair.other.lrange('l', 0, -1)).toEqual(['a', 'B', 'C']);
    await pair.other.lpush('l', 'z');
    await stale(edit('l', { op: 'list.set', index: 1, value: b64('x'), expectValue: b64('B') }), /the item at index 1 changed/);
    await stale(edit('l', { op: 'list.set', index: 9, value: b64('x'), expectValue: b64('B') }), /there is no item at index 9 now/);
    expect(await pair.other.lrange('l', 0, -1)).toEqual(['z', 'a', 'B', 'C']);
  });

  it('remove takes out the item at that index only, not an equal one elsewhere', async () => {
    await pair.other.rpush('l', 'x', 'y', 'x', 'y', 'x');
    await edit('l', { op: 'list.remove', index: 2, expectValue: b64('x') });
    expect(await pair.other.lrange('l', 0, -1)).toEqual(['x', 'y', 'y', 'x']);
    await edit('l', { op: 'list.remove', index: -2, expectValue: b64('y') });
    expect(await pair.other.lrange('l', 0, -1)).toEqual(['x', 'y', 'x']);
    await edit('l', { op: 'list.remove', index: 0, expectValue: b64('x') });
    expect(await pair.other.lrange('l', 0, -1)).toEqual(['y', 'x']);
    await pair.other.lset('l', 0, 'theirs');
    await stale(edit('l', { op: 'list.remove', index: 0, expectValue: b64('y') }), /the item at index 0 changed/);
    expect(await pair.other.lrange('l', 0, -1)).toEqual(['theirs', 'x']);
  });
});

describe('sets and zsets', () => {
  it('set add and remove; a member a second client removed is a conflict', async () => {
    await pair.other.sadd('s', 'a');
    await edit('s', { op: 'set.add', member: b64('b') });
    await edit('s', { op: 'set.remove', member: b64('a') });
    expect(await pair.other.smembers('s')).toEqual(['b']);
    await pair.other.sadd('s', 'c');
    await pair.other.srem('s', 'b');
    await stale(edit('s', { op: 'set.remove', member: b64('b') }), /the member is no longer in the set/);
    const seen = await openKey(pair.mine, 's');
    await pair.other.del('s');
    await pair.other.set('s', 'now a string');
    await stale(edit('s', { op: 'set.add', member: b64('x'), seen }), /it is a string now, not a set/);
  });

  it('zset add checks the score shown (as a number), or that the member is new', async () => {
    await pair.other.zadd('z', '1.5', 'a');
    await edit('z', { op: 'zset.add', member: b64('a'), score: '7', expectScore: '1.50' });
    await edit('z', { op: 'zset.add', member: b64('b'), score: '-inf', expectScore: null });
    expect(await pair.other.zrange('z', 0, -1, 'WITHSCORES')).toEqual(['b', '-inf', 'a', '7']);
    await pair.other.zincrby('z', 1, 'a');
    await stale(edit('z', { op: 'zset.add', member: b64('a'), score: '0', expectScore: '7' }), /the member's score changed/);
    await pair.other.zadd('z', 3, 'c');
    await stale(edit('z', { op: 'zset.add', member: b64('c'), score: '0', expectScore: null }), /the member is in the zset now/);
    expect(await pair.other.zscore('z', 'a')).toBe('8');
    expect(await pair.other.zscore('z', 'c')).toBe('3');
  });

  it('zset incr and remove need the member still there', async () => {
    await pair.other.zadd('z', 1, 'a', 2, 'b');
    await edit('z', { op: 'zset.incr', member: b64('a'), by: '2.5' });
    expect(await pair.other.zscore('z', 'a')).toBe('3.5');
    await edit('z', { op: 'zset.remove', member: b64('b') });
    await pair.other.zrem('z', 'a');
    await pair.other.zadd('z', 9, 'c');
    await stale(edit('z', { op: 'zset.incr', member: b64('a'), by: '1' }), /the member is no longer in the zset/);
    await stale(edit('z', { op: 'zset.remove', member: b64('a') }), /the member is no longer in the zset/);
    expect(await pair.other.zrange('z', 0, -1)).toEqual(['c']);
  });

  it('a score Redis refuses names its field', async () => {
    await pair.other.zadd('z', 'inf', 'a');
    expect(await refusal(edit('z', { op: 'zset.incr', member: b64('a'), by: '-inf' }))).toMatchObject({ code: 'VALIDATION', field: 'edit.by' });
  });
});

describe('streams', () => {
  it('add with * or an ID; an ID at or under the top is refused naming edit.id', async () => {
    await pair.other.xadd('x', '5-0', 'f', 'v');
    await edit('x', {
      op: 'stream.add',
      fields: [
        { field: b64('a'), value: b64('1') },
        { field: b64('b'), value: b64('2') },
      ],
    });
    await edit('x', { op: 'stream.add', id: '99999999999999-0', fields: [{ field: b64('c'), value: b64('3') }] });
    const entries = await pair.other.xrange('x', '-', '+');
    expect(entries.map(([, f]) => f)).toEqual([
      ['f', 'v'],
      ['a', '1', 'b', '2'],
      ['c', '3'],
    ]);
    const e = await refusal(edit('x', { op: 'stream.add', id: '6-0', fields: [{ field: b64('d'), value: b64('4') }] }));
    expect(e).toMatchObject({ code: 'VALIDATION', field: 'edit.id' });
    expect(e.message).toMatch(/equal or smaller/);
  });

  it('delete an entry; one a second client deleted is a conflict', async () => {
    await pair.other.xadd('x', '1-0', 'f', 'v');
    await pair.other.xadd('x', '2-0', 'f', 'v');
    await edit('x', { op: 'stream.delete', id: '1-0' });
    await pair.other.xdel('x', '2-0');
    await stale(edit('x', { op: 'stream.delete', id: '2-0' }), /entry 2-0 is no longer in the stream/);
    expect(await pair.other.xlen('x')).toBe(0);
  });
});

describe('TTL, rename and delete, on binary names', () => {
  const bin = Buffer.from([0x75, 0xff, 0x0d, 0x0a, 0x00, 0x3a]);
  const bin2 = Buffer.from([0xfe, 0x0d, 0x0a]);

  it('set and remove the TTL; the type shown must still match', async () => {
    await pair.other.set(bin, 'v');
    const { meta } = await edit(bin, { op: 'ttl.set', ttlSeconds: 60 });
    expect(meta.ttlMs).toBeGreaterThan(50_000);
    expect(await pair.other.ttl(bin)).toBeGreaterThan(50);
    await edit(bin, { op: 'ttl.remove' });
    expect(await pair.other.ttl(bin)).toBe(-1);
    const seen = await openKey(pair.mine, bin);
    await pair.other.del(bin);
    await pair.other.sadd(bin, 'm');
    await stale(edit(bin, { op: 'ttl.set', ttlSeconds: 60, seen }), /it is a set now, not a string/);
    expect(await pair.other.ttl(bin)).toBe(-1);
  });

  it('rename with RENAMENX: a taken name is refused on edit.to, unless overwrite is confirmed', async () => {
    await pair.other.set(bin, 'mine', 'EX', 300);
    const { key, meta } = await edit(bin, { op: 'rename', to: b64(bin2) });
    expect(key).toEqual({ text: '\\xfe\\r\\n', bytes: 3, truncated: false, b64: b64(bin2) });
    expect(meta).toMatchObject({ exists: true, type: 'string' });
    expect(meta.ttlMs).toBeGreaterThan(200_000);
    expect(await pair.other.exists(bin)).toBe(0);
    await pair.other.set(bin, 'theirs');
    const e = await refusal(edit(bin2, { op: 'rename', to: b64(bin) }));
    expect(e).toMatchObject({ code: 'CONFLICT', field: 'edit.to' });
    expect(await pair.other.get(bin)).toBe('theirs');
    await edit(bin2, { op: 'rename', to: b64(bin), overwrite: true });
    expect(await pair.other.get(bin)).toBe('mine');
    expect(await pair.other.exists(bin2)).toBe(0);
    expect(await refusal(edit(bin, { op: 'rename', to: b64(bin) }))).toMatchObject({ code: 'VALIDATION', field: 'edit.to' });
  });

  it('rename of a key a second client deleted is a conflict', async () => {
    await stale(edit(bin, { op: 'rename', to: b64(bin2) }), /the key no longer exists/);
    expect(await pair.other.exists(bin2)).toBe(0);
  });

  it('delete (UNLINK); the type the view showed must still be the type', async () => {
    await pair.other.rpush(bin, 'i');
    const seen = await openKey(pair.mine, bin);
    await pair.other.del(bin);
    await pair.other.hset(bin, 'f', 'v');
    await stale(edit(bin, { op: 'delete', seen }), /it is a hash now, not a list/);
    const { meta } = await edit(bin, { op: 'delete' });
    expect(meta).toMatchObject({ exists: false, type: null });
    expect(await pair.other.exists(bin)).toBe(0);
    await stale(edit(bin, { op: 'delete' }), /the key no longer exists/);
  });
});

describe('scripts', () => {
  it('run again after the server forgot them (SCRIPT FLUSH: NOSCRIPT, then EVAL)', async () => {
    await pair.other.set('s', 'a');
    await edit('s', { op: 'string.append', value: b64('b') });
    await pair.other.script('FLUSH');
    await edit('s', { op: 'string.append', value: b64('c') });
    expect(await pair.other.get('s')).toBe('abc');
  });
});
