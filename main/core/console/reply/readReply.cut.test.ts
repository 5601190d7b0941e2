import type { Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyText } from '../../../../app/replyText';
import { REPLY_DISPLAY_BYTES, REPLY_DISPLAY_ELEMENTS, REPLY_STRING_BYTES } from '../../../../app/schemas/console';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { download, openSocket, redisCli, run, tempFiles } from './replyTestKit';

/** Bytes redis-cli and the app escape alike (no well-formed UTF-8: the app shows that as text). */
function binary(i: number): Buffer {
  return Buffer.concat([Buffer.from([0x00, 0xff, 0x22, 0x5c, 0x0a, 0x0d, 0x09, 0x07, 0x08, 0x7f, 0x80, 0xc3]), Buffer.from(`#${i}`)]);
}

/** A map of nested one-entry maps: redis-cli puts a map value on lines of its own only when it spans lines. */
const NESTED_MAPS = `redis.setresp(3)
local m = {}
for i = 1, tonumber(ARGV[1]) do
  m['k' .. i] = {map = {x = {map = {a = {i, {map = {p = 1, q = 'two'}}}}}, y = {map = {w = {7}}}, z = {map = {}}}}
end
return {map = m}`;

describe('readReply past the display bounds, with the whole reply in a download file', () => {
  const server = useRedis();
  const files = tempFiles();
  let admin: Redis;
  let resp2: Socket;
  let resp3: Socket;
  const LIST = REPLY_DISPLAY_ELEMENTS + 5;

  beforeAll(async () => {
    admin = await adminClient(server());
    for (let i = 0; i < LIST; i += 1000) {
      await admin.rpush('list', ...Array.from({ length: Math.min(1000, LIST - i) }, (_, k) => binary(i + k)));
    }
    resp2 = await openSocket(server());
    resp3 = await openSocket(server());
    await run(resp3, files, ['HELLO', '3']);
  });
  afterAll(async () => {
    resp2.destroy();
    resp3.destroy();
    await closeAdmins();
  });

  it('cuts at the element bound with exact totals; the file prints binary strings as redis-cli does, formatted and raw', async () => {
    for (const raw of [false, true]) {
      const got = await run(resp2, files, ['LRANGE', 'list', '0', '-1'], raw);
      // The array itself counts one element.
      expect(got.reply).toMatchObject({ t: 'array', total: LIST });
      const items = (got.reply as { items: unknown[] }).items;
      expect(items).toHaveLength(REPLY_DISPLAY_ELEMENTS - 1);
      expect(items[7]).toEqual({ t: 'bulk', v: '\\x00\\xff\\"\\\\\\n\\r\\t\\a\\b\\x7f\\x80\\xc3#7', bytes: 14 });
      let dataBytes = 0;
      for (let i = 0; i < LIST; i++) dataBytes += binary(i).length;
      expect(got.cut).toMatchObject({ totalElements: LIST + 1, totalBytes: dataBytes });
      const file = await download(files, got.cut);
      expect(got.cut?.fileBytes).toBe(file.length);
      expect(file.equals(redisCli(server(), ['LRANGE', 'list', '0', '-1'], { raw, resp3: false }))).toBe(true);
    }
  });

  it('cuts at the byte bound inside the string that passes it', async () => {
    const size = 60 * 1024;
    const count = Math.ceil(REPLY_DISPLAY_BYTES / size) + 5;
    await admin.rpush('wide', ...Array.from({ length: count }, (_, i) => String(i % 10).repeat(size)));
    const got = await run(resp2, files, ['LRANGE', 'wide', '0', '-1']);
    const whole = Math.floor(REPLY_DISPLAY_BYTES / size);
    const items = (got.reply as { items: { v: string; cut?: boolean }[] }).items;
    expect(items).toHaveLength(whole + 1);
    expect(items[whole - 1]?.cut).toBeUndefined();
    expect(items[whole]).toMatchObject({ cut: true, bytes: size });
    expect(items[whole]?.v).toHaveLength(REPLY_DISPLAY_BYTES - whole * size);
    expect(got.cut).toMatchObject({ totalElements: count + 1, totalBytes: count * size });
    expect((await download(files, got.cut)).equals(redisCli(server(), ['LRANGE', 'wide', '0', '-1'], { raw: false, resp3: false }))).toBe(true);
  });

  it('cuts one string at the string bound; the file holds it whole', async () => {
    const value = Buffer.alloc(REPLY_STRING_BYTES + 1000, 'ab\x01');
    await admin.set('long', value);
    const got = await run(resp3, files, ['GET', 'long']);
    expect(got.reply).toMatchObject({ t: 'bulk', bytes: value.length, cut: true });
    expect(got.cut).toMatchObject({ totalElements: 1, totalBytes: value.length });
    expect((await download(files, got.cut)).equals(redisCli(server(), ['GET', 'long'], { raw: false, resp3: true }))).toBe(true);
    const raw = await run(resp3, files, ['GET', 'long'], true);
    expect((await download(files, raw.cut)).equals(Buffer.concat([value, Buffer.from('\n')]))).toBe(true);
  });

  it('cuts a RESP3 map between entries, and a nested reply (XRANGE), printing both files as redis-cli -3 does', async () => {
    const fields = REPLY_DISPLAY_ELEMENTS;
    for (let i = 0; i < fields; i += 1000) {
      await admin.hset('hash', Object.fromEntries(Array.from({ length: 1000 }, (_, k) => [`field:${i + k}`, binary(i + k)])));
    }
    const map = await run(resp3, files, ['HGETALL', 'hash']);
    expect(map.reply).toMatchObject({ t: 'map', total: fields });
    expect((map.reply as { entries: unknown[] }).entries).toHaveLength((REPLY_DISPLAY_ELEMENTS - 1) >> 1);
    expect(map.cut?.totalElements).toBe(2 * fields + 1);
    expect((await download(files, map.cut)).equals(redisCli(server(), ['HGETALL', 'hash'], { raw: false, resp3: true }))).toBe(true);

    for (let i = 0; i < 5000; i++) admin.xadd('stream', `${i + 1}-1`, 'f', binary(i), 'g', String(i)).catch(() => undefined);
    await admin.ping();
    const nested = await run(resp3, files, ['XRANGE', 'stream', '-', '+']);
    // Each entry: its array, the id, the fields array and 4 strings.
    expect(nested.cut?.totalElements).toBe(1 + 5000 * 7);
    expect((nested.reply as { items: unknown[] }).items[0]).toEqual({
      t: 'array',
      total: 2,
      items: [
        { t: 'bulk', v: '1-1', bytes: 3 },
        {
          t: 'array',
          total: 4,
          items: [
            { t: 'bulk', v: 'f', bytes: 1 },
            { t: 'bulk', v: '\\x00\\xff\\"\\\\\\n\\r\\t\\a\\b\\x7f\\x80\\xc3#0', bytes: 14 },
            { t: 'bulk', v: 'g', bytes: 1 },
            { t: 'bulk', v: '0', bytes: 1 },
          ],
        },
      ],
    });
    for (const raw of [false, true]) {
      const got = raw ? await run(resp3, files, ['XRANGE', 'stream', '-', '+'], true) : nested;
      expect((await download(files, got.cut)).equals(redisCli(server(), ['XRANGE', 'stream', '-', '+'], { raw, resp3: true }))).toBe(true);
    }
  });

  it('prints nested one-entry maps as redis-cli -3 does, in the shown tree and in the file', async () => {
    const small = await run(resp3, files, ['EVAL', NESTED_MAPS, '0', '3']);
    expect(small.cut).toBeUndefined();
    expect(replyText(small.reply, 'formatted')).toBe(redisCli(server(), ['EVAL', NESTED_MAPS, '0', '3'], { raw: false, resp3: true }).toString());
    const entries = 2000; // 19 values each
    const big = await run(resp3, files, ['EVAL', NESTED_MAPS, '0', String(entries)]);
    expect(big.cut?.totalElements).toBe(1 + entries * 19);
    expect((await download(files, big.cut)).equals(redisCli(server(), ['EVAL', NESTED_MAPS, '0', String(entries)], { raw: false, resp3: true }))).toBe(true);
  });
});
