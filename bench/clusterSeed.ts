import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { slotOf } from '../main/core/resp/slot';
import { valueFor } from './bulkData';

/** Which master (its index in `masters`) serves each of the 16384 slots, from CLUSTER SLOTS. */
export async function slotOwners(admin: Redis, masters: { port: number }[]): Promise<Uint8Array> {
  const slots = (await admin.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
  const owners = new Uint8Array(16384);
  for (const [from, to, [, port]] of slots)
    owners.fill(
      masters.findIndex((m) => m.port === port),
      from,
      to + 1,
    );
  return owners;
}

/**
 * bulkData's records (`SET key:<i> <value>`) split by the master serving each key's slot:
 * redis-cli --pipe's input, one file per master (redis-cli --pipe follows no MOVED).
 */
export async function splitByOwner(dir: string, n: number, valueBytes: number, owners: Uint8Array, count: number): Promise<string[]> {
  const paths = Array.from({ length: count }, (_, i) => join(dir, `master-${i}.resp`));
  const outs = paths.map((p) => createWriteStream(p, { highWaterMark: 1 << 20 }));
  const bufs = paths.map(() => '');
  for (let i = 0; i < n; i++) {
    const k = `key:${i}`;
    const v = valueFor(i, valueBytes);
    const o = owners[slotOf(k)] as number;
    bufs[o] += `*3\r\n$3\r\nSET\r\n$${k.length}\r\n${k}\r\n$${v.length}\r\n${v}\r\n`;
    if ((bufs[o] as string).length > 1 << 20) {
      if (!(outs[o] as NodeJS.WritableStream).write(bufs[o] as string)) await once(outs[o] as NodeJS.EventEmitter, 'drain');
      bufs[o] = '';
    }
  }
  await Promise.all(
    outs.map(async (out, o) => {
      out.end(bufs[o]);
      await once(out, 'finish');
    }),
  );
  return paths;
}
