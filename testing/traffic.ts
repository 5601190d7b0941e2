import { connect } from 'node:net';
import { Redis } from 'ioredis';

/**
 * Writes to `server` for `ms` as live traffic would (pipelines of 100 SETs under
 * `prefix`, 20 ms apart: a few thousand ops/s), then disconnects.
 */
export async function writeTraffic(server: { host: string; port: number }, ms: number, prefix = 'traffic:'): Promise<void> {
  const writer = new Redis({ host: server.host, port: server.port });
  try {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const p = writer.pipeline();
      for (let i = 0; i < 100; i++) p.set(`${prefix}${i}`, String(i));
      await p.exec();
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    writer.disconnect();
  }
}

export interface FloodOptions {
  channel: string | Buffer;
  /** Messages to publish, exactly. */
  count: number;
  /** Aimed rate; the flood sends what is due every 10 ms, pipelined. */
  perSecond: number;
  payload?: Buffer;
  command?: 'PUBLISH' | 'SPUBLISH';
}

export interface FloodResult {
  published: number;
  /** The sum of the receiver counts Redis returned. */
  receivers: number;
  ms: number;
}

/**
 * PUBLISH `count` messages at about `perSecond` on a raw socket of its own (ioredis would
 * cost more than the server under test), pipelined: what is due is written every 10 ms,
 * replies are only counted and summed. Resolves once every reply is in.
 */
export async function publishFlood(server: { host: string; port: number }, o: FloodOptions): Promise<FloodResult> {
  const channel = typeof o.channel === 'string' ? Buffer.from(o.channel) : o.channel;
  const payload = o.payload ?? Buffer.from('m');
  const name = o.command ?? 'PUBLISH';
  const one = Buffer.concat([
    Buffer.from(`*3\r\n$${name.length}\r\n${name}\r\n$${channel.length}\r\n`),
    channel,
    Buffer.from(`\r\n$${payload.length}\r\n`),
    payload,
    Buffer.from('\r\n'),
  ]);
  const socket = connect({ host: server.host, port: server.port });
  socket.setNoDelay(true);
  const started = Date.now();
  let sent = 0;
  let replies = 0;
  let receivers = 0;
  let carry = '';
  const done = new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      const text = carry + chunk.toString('latin1');
      const lines = text.split('\r\n');
      carry = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('-')) reject(new Error(`${name} refused: ${line.slice(1)}`));
        if (!line.startsWith(':')) continue;
        replies++;
        receivers += Number(line.slice(1));
      }
      if (replies >= o.count) resolve();
    });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  while (sent < o.count) {
    const due = Math.min(o.count, Math.floor(((Date.now() - started) * o.perSecond) / 1000) + Math.ceil(o.perSecond / 100));
    const n = due - sent;
    if (n > 0) {
      const ok = socket.write(Buffer.concat(Array<Buffer>(n).fill(one)));
      sent += n;
      if (!ok) await new Promise((r) => socket.once('drain', r));
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await done;
  socket.end();
  return { published: sent, receivers, ms: Date.now() - started };
}
