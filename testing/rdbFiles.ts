import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { adminClient, startRedis, type RedisProcess } from './redis';

/**
 * RDB files written by the real redis-server, for the snapshot parser's tests: a private server
 * with LZF compression on and DEBUG allowed (active expiry off, a small quicklist packed threshold
 * so plain nodes appear), filled with a key of every encoding it writes, then SAVEd.
 */

export interface RdbServer {
  proc: RedisProcess;
  admin: Redis;
  /** SAVE, and the path of the dump it wrote. */
  save(): Promise<string>;
}

export async function startRdbServer(): Promise<RdbServer> {
  const proc = await startRedis({ args: ['--rdbcompression', 'yes', '--rdbchecksum', 'yes', '--enable-debug-command', 'yes', '--dbfilename', 'dump.rdb'] });
  const admin = await adminClient(proc);
  return {
    proc,
    admin,
    async save() {
      await admin.call('SAVE');
      return join(proc.dir, 'dump.rdb');
    },
  };
}

/** An expected record for a key the tests cannot ask the server about without expiring it. */
export interface ExpiredKey {
  db: number;
  key: string;
  type: string;
  length: number;
}

/** A value Redis cannot compress: LZF gains nothing, so it is saved raw. */
function noise(bytes: number, seed: number): string {
  let x = seed;
  let s = '';
  for (let i = 0; i < bytes; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += String.fromCharCode(33 + (x % 90));
  }
  return s;
}

/**
 * Keys of every type and every encoding Redis writes, over DBs 0, 1 and 5, some with TTLs in
 * the future and some (returned) already expired but still present because active expiry is off.
 */
export async function fillEveryEncoding(server: RdbServer): Promise<ExpiredKey[]> {
  const { proc } = server;
  const admin = server.admin;
  await admin.call('DEBUG', 'SET-ACTIVE-EXPIRE', '0');
  // Small thresholds so that a few elements reach the big encodings.
  for (const [name, value] of [
    ['hash-max-listpack-entries', '8'],
    ['zset-max-listpack-entries', '8'],
    ['set-max-intset-entries', '16'],
    ['list-max-listpack-size', '4'],
  ] as const) {
    await admin.config('SET', name, value);
  }

  const db0 = admin;
  await db0.set('str:int', '12345');
  await db0.set('str:int-negative', '-7');
  await db0.set('str:int64', '9223372036854775807');
  await db0.set('str:not-int', '007');
  await db0.set('str:embstr', 'hello');
  await db0.set('str:raw-compressible', 'abc'.repeat(200));
  await db0.set('str:raw-noise', noise(300, 1));
  await db0.set('str:big', 'xyz'.repeat(100_000));
  await db0.set(`key-${'k'.repeat(80)}`, 'a key name long enough to be compressed');
  await db0.set(Buffer.from([0xff, 0x00, 0x80, 0x0a]), 'binary name');

  await db0.rpush('list:small', 'a', 'b', 'c');
  await db0.rpush('list:nodes', ...Array.from({ length: 50 }, (_, i) => `element-${i}-${'e'.repeat(i)}`));
  await db0.rpush('list:ints', ...Array.from({ length: 30 }, (_, i) => String(i * 1000)));
  // Elements over the packed threshold are stored in PLAIN nodes.
  await admin.call('DEBUG', 'QUICKLIST-PACKED-THRESHOLD', '200');
  await db0.rpush('list:plain', 'small', 'p'.repeat(500), noise(400, 2), 'small again');
  await admin.call('DEBUG', 'QUICKLIST-PACKED-THRESHOLD', '1073741824');

  await db0.sadd('set:intset', 1, 2, 3, 70000, -5);
  await db0.sadd('set:intset64', 1, '9000000000');
  await db0.sadd('set:hashtable', 'a', 'b', 'c', 'long-member-'.repeat(5));
  await db0.sadd('set:many-ints', ...Array.from({ length: 40 }, (_, i) => i));

  await db0.zadd('zset:listpack', 1, 'a', 2.5, 'b', -3, 'c');
  await db0.zadd('zset:skiplist', ...Array.from({ length: 20 }, (_, i) => [i / 3, `member-${i}`]).flat());
  await db0.zadd('zset:inf', 'inf', 'up', '-inf', 'down');

  await db0.hset('hash:listpack', { f1: 'v1', f2: 'v2', f3: '3' });
  await db0.hset('hash:hashtable', Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field-${i}`, `value-${i}-${'v'.repeat(i * 3)}`])));
  await db0.hset('hash:compressible', { text: 'q'.repeat(60), more: 'r'.repeat(30) });

  for (let i = 0; i < 20; i++) await db0.xadd('stream:groups', '*', 'n', String(i), 'payload', 's'.repeat(i));
  await db0.xgroup('CREATE', 'stream:groups', 'g1', '0');
  await db0.xgroup('CREATE', 'stream:groups', 'g2', '$');
  await db0.xreadgroup('GROUP', 'g1', 'alice', 'COUNT', '5', 'STREAMS', 'stream:groups', '>');
  await db0.xreadgroup('GROUP', 'g1', 'bob', 'COUNT', '3', 'STREAMS', 'stream:groups', '>');
  await db0.call('XGROUP', 'CREATECONSUMER', 'stream:groups', 'g2', 'carol');
  await db0.xadd('stream:plain', '1-1', 'a', '1');
  await db0.xadd('stream:trimmed', '*', 'a', '1');
  await db0.xadd('stream:trimmed', '*', 'a', '2');
  await db0.xdel('stream:trimmed', (await db0.xrange('stream:trimmed', '-', '+', 'COUNT', 1))[0]![0]);

  await db0.set('ttl:future-ms', 'x', 'PX', 3_600_000);
  await db0.set('ttl:future-s', 'x', 'EX', 86_400);
  await db0.hset('ttl:hash', { a: '1' });
  await db0.pexpire('ttl:hash', 7_200_000);

  const db1 = await adminClient(proc, { db: 1 });
  const pipe = db1.pipeline();
  for (let i = 0; i < 3000; i++) pipe.set(`bulk:${i}`, i % 3 === 0 ? String(i) : `value-${i}`);
  for (let i = 0; i < 100; i++) pipe.set(`bulk:ttl:${i}`, 'v', 'PX', 600_000 + i);
  await pipe.exec();
  await db1.quit();

  const db5 = await adminClient(proc, { db: 5 });
  await db5.set('db5:string', 'five');
  await db5.rpush('db5:list', 'x');
  // Expired but present: set with a 1 ms TTL, then never looked up (a lookup would delete it).
  await db5.set('expired:string', 'gone soon', 'PX', 1);
  await db5.rpush('expired:list', 'a', 'b');
  await db5.pexpire('expired:list', 1);
  await db5.quit();
  await new Promise((resolve) => setTimeout(resolve, 20));
  return [
    { db: 5, key: 'expired:string', type: 'string', length: 9 },
    { db: 5, key: 'expired:list', type: 'list', length: 2 },
  ];
}
