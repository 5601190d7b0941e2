import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** One key in 10,000 goes to the `rare:` folder: the folder holding 0.01% of the keys. */
export const RARE_EVERY = 10_000;

/** The folder of key i (deterministic), and the key itself. */
export function keyOf(i: number): string {
  if (i % RARE_EVERY === 0) return `rare:${i}`;
  switch (i % 4) {
    case 0:
      return `user:${i % 1000}:${i}`;
    case 1:
      return `session:${i.toString(16)}`;
    case 2:
      return `cache:page:${i}`;
    default:
      return `order:${i % 100}:${i}`;
  }
}

/** Writes `SET key 1` for n keys as RESP, for `redis-cli --pipe`. */
export async function writeKeysData(path: string, n: number): Promise<void> {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  let buf = '';
  for (let i = 0; i < n; i++) {
    const k = keyOf(i);
    buf += `*3\r\n$3\r\nSET\r\n$${k.length}\r\n${k}\r\n$1\r\n1\r\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

/** Keys per top-level folder (and per key at the root), as the generator made them. */
export function expectedTop(n: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const k = keyOf(i);
    const top = k.slice(0, k.indexOf(':') + 1);
    out.set(top, (out.get(top) ?? 0) + 1);
  }
  return out;
}
