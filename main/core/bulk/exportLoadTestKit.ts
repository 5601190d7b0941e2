import type { Redis } from 'ioredis';

/*
 * Keys of every type for the export round trips, and a comparison that reads values with each
 * type's own commands (not DUMP, which would compare encodings, not data).
 */

/** 2.5 MiB: a string the export writes in three parts. */
const BIG = Buffer.alloc(2.5 * 1024 * 1024, 'abcdefghij');

/** Writes the keys under `p` (a prefix): every type, binary names and values, big values, TTLs. */
export async function seedEveryType(admin: Redis, p: string): Promise<void> {
  const m = admin.multi();
  m.set(`${p}str`, 'plain, "quoted"\nline two', 'PX', 600_000);
  m.set(Buffer.concat([Buffer.from(p), Buffer.from([0xff, 0x00, 0x0a])]), Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff]));
  m.set(`${p}ключ:✓`, 'значение 🎉');
  m.set(`${p}empty`, '');
  m.set(`${p}big`, BIG);
  const hash: Array<string | Buffer> = [];
  for (let i = 0; i < 1200; i++) hash.push(`f${i}`, `v${i}`);
  hash.push('__proto__', 'not a prototype', Buffer.from([0xc3, 0x28]), Buffer.from([0x80]));
  m.hset(`${p}hash`, ...hash);
  m.pexpire(`${p}hash`, 900_000);
  const list: Array<string | Buffer> = [];
  for (let i = 0; i < 1100; i++) list.push(`item ${i % 7}`);
  list.push('', Buffer.from([0xfe]));
  m.rpush(`${p}list`, ...list);
  const set: string[] = [];
  for (let i = 0; i < 700; i++) set.push(`m${i}`);
  m.sadd(`${p}set`, ...set);
  m.sadd(`${p}small-set`, 'a', 'b');
  m.zadd(`${p}zset`, '1.5', 'one and a half', '-inf', 'low', '+inf', 'high', '1e-300', 'tiny', '0', 'zero');
  for (let i = 0; i < 600; i++) m.xadd(`${p}stream`, `${1000 + i}-${i % 3}`, 'n', String(i), 'text', `entry ${i}`);
  await m.exec();
}

/** A key's value read type by type, as text that equal values share (sets and hashes sorted). */
async function valueOf(admin: Redis, key: Buffer): Promise<string> {
  const type = await admin.type(key);
  const hex = (b: Buffer) => b.toString('hex');
  switch (type) {
    case 'string':
      return `string ${hex((await admin.getBuffer(key)) ?? Buffer.alloc(0))}`;
    case 'hash': {
      // Flat [field, value…] as Buffers: hgetallBuffer's object keys would decode binary field names.
      const flat = (await admin.callBuffer('HGETALL', key)) as Buffer[];
      const pairs: string[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) pairs.push(`${hex(flat[i] as Buffer)}=${hex(flat[i + 1] as Buffer)}`);
      return `hash ${pairs.sort().join(',')}`;
    }
    case 'list':
      return `list ${(await admin.lrangeBuffer(key, 0, -1)).map(hex).join(',')}`;
    case 'set':
      return `set ${(await admin.smembersBuffer(key)).map(hex).sort().join(',')}`;
    case 'zset':
      return `zset ${(await admin.zrangeBuffer(key, 0, -1, 'WITHSCORES')).map((b) => b.toString('latin1')).join(',')}`;
    case 'stream':
      return `stream ${JSON.stringify(await admin.xrange(key, '-', '+'))}`;
    default:
      return type;
  }
}

/** Every key of `from` (matching `match`) equal in `to`, with TTLs within `toleranceMs`; returns how many keys. */
export async function expectSameKeys(from: Redis, to: Redis, match: string, toleranceMs: number): Promise<{ keys: number; problems: string[] }> {
  const problems: string[] = [];
  let keys = 0;
  let cursor = '0';
  do {
    const [next, batch] = await from.scanBuffer(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next.toString();
    for (const key of batch) {
      keys++;
      const [a, b] = await Promise.all([valueOf(from, key), valueOf(to, key)]);
      if (a !== b) problems.push(`${key.toString('hex')}: ${a.slice(0, 80)} ≠ ${b.slice(0, 80)}`);
      const [ta, tb] = await Promise.all([from.pttl(key), to.pttl(key)]);
      if (ta < 0 !== tb < 0 || Math.abs(ta - tb) > toleranceMs) problems.push(`${key.toString('hex')}: ttl ${ta} ≠ ${tb}`);
    }
  } while (cursor !== '0');
  const extra = (await to.dbsize()) - keys;
  if (extra !== 0) problems.push(`the target holds ${extra} keys more than the source matched`);
  return { keys, problems };
}
