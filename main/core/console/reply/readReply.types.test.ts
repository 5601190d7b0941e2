import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyText } from '../../../../app/replyText';
import type { ReplyNode } from '../../../../app/schemas/console';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { openSocket, redisCli, run, tempFiles } from './replyTestKit';

const b = (v: string): ReplyNode => ({ t: 'bulk', v, bytes: v.length });
const i = (v: number): ReplyNode => ({ t: 'integer', v: String(v) });
const NESTED = "return {1, {'a', {'b', false}}, redis.error_reply('E inner')}";

/** Each command, its reply under RESP3 and RESP2, and whether redis-cli 7.0 can print it to compare. */
const CASES: { args: string[]; resp3: ReplyNode; resp2: ReplyNode; cli3?: false }[] = [
  {
    args: ['HGETALL', 'h'],
    resp3: {
      t: 'map',
      total: 2,
      entries: [
        [b('f1'), b('v1')],
        [b('f2'), b('v2')],
      ],
    },
    resp2: { t: 'array', total: 4, items: [b('f1'), b('v1'), b('f2'), b('v2')] },
  },
  { args: ['SMEMBERS', 's'], resp3: { t: 'set', total: 1, items: [b('only')] }, resp2: { t: 'array', total: 1, items: [b('only')] } },
  { args: ['ZSCORE', 'z', 'm'], resp3: { t: 'double', v: '1.5' }, resp2: b('1.5') },
  { args: ['INCR', 'counter'], resp3: i(42), resp2: i(42) },
  { args: ['GET', 'missing'], resp3: { t: 'null' }, resp2: { t: 'null' } },
  { args: ['SET', 'k', 'v'], resp3: { t: 'simple', v: 'OK' }, resp2: { t: 'simple', v: 'OK' } },
  {
    args: ['GET', 'h'],
    resp3: { t: 'error', v: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
    resp2: { t: 'error', v: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
  },
  {
    args: ['EVAL', NESTED, '0'],
    resp3: {
      t: 'array',
      total: 3,
      items: [i(1), { t: 'array', total: 2, items: [b('a'), { t: 'array', total: 2, items: [b('b'), { t: 'null' }] }] }, { t: 'error', v: 'E inner' }],
    },
    resp2: {
      t: 'array',
      total: 3,
      items: [i(1), { t: 'array', total: 2, items: [b('a'), { t: 'array', total: 2, items: [b('b'), { t: 'null' }] }] }, { t: 'error', v: 'E inner' }],
    },
  },
  {
    args: ['DEBUG', 'PROTOCOL', 'bignum'],
    resp3: { t: 'bignum', v: '1234567999999999999999999999999999999' },
    resp2: b('1234567999999999999999999999999999999'),
    cli3: false,
  },
  {
    args: ['DEBUG', 'PROTOCOL', 'verbatim'],
    resp3: { t: 'verbatim', format: 'txt', v: 'This is a verbatim\\nstring', bytes: 25 },
    resp2: { t: 'bulk', v: 'This is a verbatim\\nstring', bytes: 25 },
  },
  { args: ['DEBUG', 'PROTOCOL', 'true'], resp3: { t: 'boolean', v: true }, resp2: i(1) },
  { args: ['DEBUG', 'PROTOCOL', 'false'], resp3: { t: 'boolean', v: false }, resp2: i(0) },
  { args: ['DEBUG', 'PROTOCOL', 'null'], resp3: { t: 'null' }, resp2: { t: 'null' } },
  { args: ['DEBUG', 'PROTOCOL', 'double'], resp3: { t: 'double', v: '3.141' }, resp2: b('3.141') },
  {
    args: ['DEBUG', 'PROTOCOL', 'map'],
    resp3: {
      t: 'map',
      total: 3,
      entries: [
        [i(0), { t: 'boolean', v: false }],
        [i(1), { t: 'boolean', v: true }],
        [i(2), { t: 'boolean', v: false }],
      ],
    },
    resp2: { t: 'array', total: 6, items: [0, 0, 1, 1, 2, 0].map(i) },
  },
  { args: ['DEBUG', 'PROTOCOL', 'set'], resp3: { t: 'set', total: 3, items: [0, 1, 2].map(i) }, resp2: { t: 'array', total: 3, items: [0, 1, 2].map(i) } },
  // The attribute is kept apart (see below); the push before the reply is skipped.
  {
    args: ['DEBUG', 'PROTOCOL', 'attrib'],
    resp3: b('Some real reply following the attribute'),
    resp2: b('Some real reply following the attribute'),
    cli3: false,
  },
  {
    args: ['DEBUG', 'PROTOCOL', 'push'],
    resp3: b('Some real reply following the push reply'),
    resp2: { t: 'error', v: 'ERR RESP2 is not supported by this command' },
  },
];

describe.each([3, 2] as const)('readReply from a real server under RESP%i', (protocol) => {
  const server = useRedis({ args: ['--enable-debug-command', 'yes'] });
  const files = tempFiles();
  let socket: Socket;

  beforeAll(async () => {
    const admin = await adminClient(server());
    await admin.hset('h', 'f1', 'v1', 'f2', 'v2');
    await admin.sadd('s', 'only');
    await admin.zadd('z', '1.5', 'm');
    await admin.set('counter', '41');
    socket = await openSocket(server());
    if (protocol === 3) expect((await run(socket, files, ['HELLO', '3'])).reply).toMatchObject({ t: 'map' });
  });
  afterAll(async () => {
    socket.destroy();
    await closeAdmins();
  });

  it.each(CASES.map((c) => [c.args.join(' '), c] as const))('%s', async (_name, c) => {
    const got = await run(socket, files, c.args);
    const want = protocol === 3 ? c.resp3 : c.resp2;
    expect(got.reply).toEqual(want);
    expect(got.cut).toBeUndefined();
    // redis-cli runs the command again: INCR would count once more.
    if ((protocol === 3 && c.cli3 === false) || c.args[0] === 'INCR') return;
    expect(replyText(got.reply, 'formatted')).toBe(redisCli(server(), c.args, { raw: false, resp3: protocol === 3 }).toString());
    expect(replyText(got.reply, 'raw')).toBe(redisCli(server(), c.args, { raw: true, resp3: protocol === 3 }).toString());
  });

  it.runIf(protocol === 3)('keeps the attribute DEBUG PROTOCOL attrib sends before its reply', async () => {
    const got = await run(socket, files, ['DEBUG', 'PROTOCOL', 'attrib']);
    expect(got.attribute).toEqual({
      t: 'attribute',
      total: 1,
      entries: [[b('key-popularity'), { t: 'array', total: 2, items: [b('key:123'), i(90)] }]],
    });
    expect(replyText(got.attribute as ReplyNode, 'formatted')).toBe('1| "key-popularity" => \n   1) "key:123"\n   2) (integer) 90\n');
  });
});
