import { describe, expect, it } from 'vitest';
import { onlyReply, useConsoleCore } from '../consoleTestKit';

const { core } = useConsoleCore({
  // DEBUG PROTOCOL answers each RESP3 type on demand (booleans, big numbers, attributes have no everyday command).
  server: { args: ['--enable-debug-command', 'yes'] },
  arrange: async (admin) => {
    await admin.hset('h', 'f1', 'v1', 'f2', 'v2');
    await admin.sadd('s', 'only');
    await admin.zadd('z', 1.5, 'm');
    await admin.rpush('l', 'a', 'b');
    await admin.set('str', Buffer.from([0x61, 0x0a, 0xff]));
  },
});

const reply = async (line: string, protocol: 2 | 3 = 3) => onlyReply(await core().confirmed('ops', { line, protocol }));

describe('console.run gives each RESP3 reply its type', () => {
  it('speaks RESP3 when asked and says so', async () => {
    const r = await core().done('ops', { line: 'PING' });
    expect(r.protocol).toBe(3);
    expect(onlyReply(r)).toEqual({ t: 'simple', v: 'PONG' });
  });

  it('types the everyday replies: bulk (escaped), integer, error, array, null, map, set, double, verbatim', async () => {
    expect(await reply('GET str')).toMatchObject({ t: 'bulk', v: 'a\\n\\xff', bytes: 3 });
    expect(await reply('STRLEN str')).toEqual({ t: 'integer', v: '3' });
    expect(await reply('INCR h')).toMatchObject({ t: 'error', v: expect.stringMatching(/^WRONGTYPE /) });
    expect(await reply('LRANGE l 0 -1')).toMatchObject({
      t: 'array',
      total: 2,
      items: [
        { t: 'bulk', v: 'a' },
        { t: 'bulk', v: 'b' },
      ],
    });
    expect(await reply('GET missing')).toEqual({ t: 'null' });
    expect(await reply('HGETALL h')).toMatchObject({
      t: 'map',
      total: 2,
      entries: [
        [{ v: 'f1' }, { v: 'v1' }],
        [{ v: 'f2' }, { v: 'v2' }],
      ],
    });
    expect(await reply('SMEMBERS s')).toMatchObject({ t: 'set', total: 1, items: [{ t: 'bulk', v: 'only' }] });
    expect(await reply('ZSCORE z m')).toEqual({ t: 'double', v: '1.5' });
    expect(await reply('CLIENT INFO')).toMatchObject({ t: 'verbatim', format: 'txt', v: expect.stringContaining('db=0') });
  });

  it('types the rare ones DEBUG PROTOCOL sends: big number, booleans, the reply after an attribute', async () => {
    expect(await reply('DEBUG PROTOCOL bignum')).toEqual({ t: 'bignum', v: '1234567999999999999999999999999999999' });
    expect(await reply('DEBUG PROTOCOL true')).toEqual({ t: 'boolean', v: true });
    expect(await reply('DEBUG PROTOCOL false')).toEqual({ t: 'boolean', v: false });
    expect(await reply('DEBUG PROTOCOL null')).toEqual({ t: 'null' });
    expect(await reply('DEBUG PROTOCOL double')).toMatchObject({ t: 'double', v: expect.stringMatching(/^3\.14/) });
    // An attribute is metadata sent before the reply it annotates: the reply is what is shown.
    expect(await reply('DEBUG PROTOCOL attrib')).toMatchObject({ t: 'bulk', v: 'Some real reply following the attribute' });
  });

  it('gives RESP2 shapes on protocol 2: a map is a flat array, a double a string', async () => {
    expect(await reply('HGETALL h', 2)).toMatchObject({ t: 'array', total: 4 });
    expect(await reply('ZSCORE z m', 2)).toEqual({ t: 'bulk', v: '1.5', bytes: 3 });
    const r = await core().done('ops', { line: 'PING', protocol: 2 });
    expect(r.protocol).toBe(2);
  });
});
