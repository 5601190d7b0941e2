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
