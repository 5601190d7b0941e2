import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** A deterministic 100-byte-ish value per record: same bytes in every format. */
export function valueFor(i: number, bytes: number): string {
  const seed = `v${i}:`;
  return (seed + 'x'.repeat(Math.max(0, bytes - seed.length))).slice(0, bytes);
}

async function writeLines(path: string, n: number, header: string | null, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  if (header !== null && !out.write(header)) await once(out, 'drain');
  let buf = '';
  for (let i = 0; i < n; i++) {
    buf += line(i);
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

/** RESP `SET key:<id> <value>` for ids 0..n-1, for `redis-cli --pipe` or `cacheboard load`. */
export function writeBulkResp(path: string, n: number, valueBytes: number): Promise<void> {
  return writeLines(path, n, null, (i) => {
    const k = `key:${i}`;
    const v = valueFor(i, valueBytes);
    return `*3\r\n$3\r\nSET\r\n$${k.length}\r\n${k}\r\n$${v.length}\r\n${v}\r\n`;
  });
}

/** The same records as CSV (id,value) and as RESP `SET key:<id> <value>`. */
export async function writeBulkInputs(dir: string, n: number, valueBytes: number) {
  const csv = `${dir}/records.csv`;
  const resp = `${dir}/records.resp`;
  await writeLines(csv, n, 'id,value\n', (i) => `${i},${valueFor(i, valueBytes)}\n`);
  await writeBulkResp(resp, n, valueBytes);
  return { csv, resp };
}
