import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, eventually, useRedis } from '../../../../testing/redis';
import { encodeCommand } from '../../resp/encodeCommand';
import { readReply, type ReadReply } from './readReply';
import { download, OWNER, openSocket, run, tempFiles } from './replyTestKit';

const files = tempFiles();

/** A socket stand-in whose 'data' chunks are exactly the pieces written: TCP would merge them. */
function pipe(): Socket & PassThrough {
  return new PassThrough() as unknown as Socket & PassThrough;
}

async function feed(socket: PassThrough, parts: Buffer[]): Promise<void> {
  for (const p of parts) {
    socket.write(p);
    await tick();
  }
}

/** Files whose create() calls are counted: when the reader decided it needed a download. */
function countingFiles(): { files: ReturnType<typeof tempFiles>; created: { count: number } } {
  const files = tempFiles();
  const created = { count: 0 };
  const create = files.create.bind(files);
  files.create = (owner) => {
    created.count++;
    return create(owner);
  };
  return { files, created };
}

const read = (socket: Socket, raw = false): Promise<ReadReply> => readReply(socket, { raw, files, owner: OWNER });

describe('readReply on the socket', () => {
  it('reads a reply split at any byte, skipping a push before it and leaving the next reply for the next read', async () => {
    const wire = Buffer.from('>2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n%2\r\n$1\r\na\r\n*2\r\n:1\r\n,2.5\r\n$2\r\n\xff\n\r\n#t\r\n+NEXT\r\n', 'latin1');
    const first = {
      t: 'map',
      total: 2,
      entries: [
        [
          { t: 'bulk', v: 'a', bytes: 1 },
          {
            t: 'array',
            total: 2,
            items: [
              { t: 'integer', v: '1' },
              { t: 'double', v: '2.5' },
            ],
          },
        ],
        [
          { t: 'bulk', v: '\\xff\\n', bytes: 2 },
          { t: 'boolean', v: true },
        ],
      ],
    };
    const splits = [
      ...Array.from({ length: wire.length - 1 }, (_, k) => [wire.subarray(0, k + 1), wire.subarray(k + 1)]),
      [...wire].map((b) => Buffer.from([b])),
    ];
    for (const parts of splits) {
      const socket = pipe();
      const reading = read(socket);
      await feed(socket, parts);
      const got = await reading;
      expect(got.reply).toEqual(first);
      expect(got.bytes).toBe(wire.indexOf('+NEXT') - wire.indexOf('%2'));
      expect(socket.listenerCount('data')).toBe(0);
      expect((await read(socket)).reply).toEqual({ t: 'simple', v: 'NEXT' });
    }
  });

  it('writes the same download file whether a big reply comes in one chunk or in many', async () => {
    const fields = 30_000;
    let text = `%${fields}\r\n`;
    for (let i = 0; i < fields; i++) text += `$${String(i).length + 6}\r\nfield:${i}\r\n:${i}\r\n`;
    const wire = Buffer.from(text);
    const texts: Buffer[] = [];
    for (const size of [wire.length, 1000, 7]) {
      const socket = pipe();
      const reading = read(socket);
      const parts: Buffer[] = [];
      for (let at = 0; at < wire.length; at += size) parts.push(wire.subarray(at, at + size));
      await feed(socket, parts);
      const got = await reading;
      expect(got.cut).toMatchObject({ totalElements: 2 * fields + 1 });
      texts.push(await download(files, got.cut));
    }
    expect(texts[0]?.toString().split('\n').slice(0, 2)).toEqual(['    1# "field:0" => (integer) 0', '    2# "field:1" => (integer) 1']);
    expect(texts[1]?.equals(texts[0] as Buffer)).toBe(true);
    expect(texts[2]?.equals(texts[0] as Buffer)).toBe(true);
  });

  it('starts the download file of a long string at its header, not its end: its bytes are never all kept', async () => {
    const { files: own, created } = countingFiles();
    const socket = pipe();
    const reading = readReply(socket, { raw: true, files: own, owner: OWNER });
    const size = 4 * 1024 * 1024;
    await feed(socket, [Buffer.from(`$${size}\r\n`), Buffer.alloc(100_000, 'x')]);
    expect(created.count).toBe(1);
    await feed(socket, [Buffer.alloc(size - 100_000, 'y'), Buffer.from('\r\n')]);
    const got = await reading;
    expect(got.reply).toMatchObject({ t: 'bulk', bytes: size, cut: true });
    expect(got.cut?.fileBytes).toBe(size + 1);
  });

  it('does not keep megabytes hidden in a nested attribute either: the file starts, and holds the reply without it', async () => {
    const { files: own, created } = countingFiles();
    const socket = pipe();
    const reading = readReply(socket, { raw: false, files: own, owner: OWNER });
    const size = 9 * 1024 * 1024;
    await feed(socket, [Buffer.from(`*2\r\n:1\r\n|1\r\n+note\r\n$${size}\r\n`), ...Array.from({ length: 9 }, () => Buffer.alloc(1024 * 1024, 'a'))]);
    expect(created.count).toBe(1);
    await feed(socket, [Buffer.from('\r\n:2\r\n')]);
    const got = await reading;
    expect(got.reply).toEqual({
      t: 'array',
      total: 2,
      items: [
        { t: 'integer', v: '1' },
        { t: 'integer', v: '2' },
      ],
    });
    expect((await download(own, got.cut)).toString()).toBe('1) (integer) 1\n2) (integer) 2\n');
  });

  it('rejects with REDIS on bytes that are not RESP, and with DISCONNECTED when the stream ends mid-reply', async () => {
    const bad = pipe();
    const reading = read(bad);
    bad.write(Buffer.from('*1\r\n?\r\n'));
    await expect(reading).rejects.toMatchObject({ code: 'REDIS', message: expect.stringMatching(/could not be read \(unexpected byte 0x3f/) });
    const cut = pipe();
    const half = read(cut);
    cut.write(Buffer.from('$10\r\nabc'));
    await tick();
    cut.destroy();
    await expect(half).rejects.toMatchObject({ code: 'DISCONNECTED' });
    expect(cut.listenerCount('data')).toBe(0);
  });
});

describe('readReply against a real server: cancel, close, pushes', () => {
  const server = useRedis();
  let admin: Redis;
  beforeAll(async () => {
    admin = await adminClient(server());
  });
  afterAll(closeAdmins);

  it('rejects with CANCELLED on abort, removing its listeners, and at once when already aborted', async () => {
    const socket = await openSocket(server());
    const before = [socket.listenerCount('data'), socket.listenerCount('close'), socket.listenerCount('error')];
    const abort = new AbortController();
    socket.write(encodeCommand(['BLPOP', 'nothing', '0']));
    const reading = readReply(socket, { raw: false, files, owner: OWNER, signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    await expect(reading).rejects.toMatchObject({ code: 'CANCELLED' });
    expect([socket.listenerCount('data'), socket.listenerCount('close'), socket.listenerCount('error')]).toEqual(before);
    await expect(readReply(socket, { raw: false, files, owner: OWNER, signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'CANCELLED' });
    socket.destroy();
  });

  it('rejects with DISCONNECTED when the server closes the connection, removing its listeners', async () => {
    const socket = await openSocket(server());
    socket.write(encodeCommand(['CLIENT', 'ID']));
    const id = (await read(socket)).reply;
    socket.write(encodeCommand(['BLPOP', 'nothing', '0']));
    // Its handler first: the close can come before KILL's own reply, and a rejection with no
    // handler yet is an unhandled one.
    const rejected = expect(read(socket)).rejects.toMatchObject({ code: 'DISCONNECTED' });
    await admin.client('KILL', 'ID', (id as { v: string }).v);
    await rejected;
    expect(socket.listenerCount('data')).toBe(0);
  });

  it('removes the download file of a reply cancelled while it was being written', async () => {
    const own = tempFiles();
    await admin.rpush('big', ...Array.from({ length: 30_000 }, (_, i) => `v${i}`.padEnd(200, '.')));
    const socket = await openSocket(server());
    const abort = new AbortController();
    let created = '';
    const create = own.create.bind(own);
    own.create = (owner) => {
      const w = create(owner);
      created = w.id;
      abort.abort(); // the bound has just been passed: cancel halfway
      return w;
    };
    socket.write(encodeCommand(['LRANGE', 'big', '0', '-1']));
    await expect(readReply(socket, { raw: false, files: own, owner: OWNER, signal: abort.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(created).not.toBe('');
    await expect(own.open(created, OWNER)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    socket.destroy();
  });

  it('skips a client-tracking invalidation push that came before the reply', async () => {
    const socket = await openSocket(server());
    const files2 = tempFiles();
    await run(socket, files2, ['HELLO', '3']);
    await run(socket, files2, ['CLIENT', 'TRACKING', 'on']);
    await run(socket, files2, ['GET', 'tracked']);
    await admin.set('tracked', '1');
    // The invalidation is in the socket's buffer before the PING's reply.
    expect(await eventually(() => socket.readableLength > 0)).toBe(true);
    expect((await run(socket, files2, ['PING'])).reply).toEqual({ t: 'simple', v: 'PONG' });
    socket.destroy();
  });
});
