/**
 * LZF decompression (liblzf's lzf_d.c, the format Redis compresses strings over 20 bytes with).
 * The parser never needs a value, only the headers of compact encodings (a listpack's element
 * count sits in its first 6 bytes), so `limit` stops once that many bytes are out.
 * With a limit, the input may be a prefix of the compressed bytes: decoding stops where it runs
 * out. Returns the number of bytes written, or -1 when the input is malformed.
 */
export function lzfDecompress(src: Uint8Array, start: number, end: number, out: Uint8Array, limit = out.length): number {
  let ip = start;
  let op = 0;
  while (ip < end && op < limit) {
    const ctrl = src[ip++]!;
    if (ctrl < 32) {
      let n = ctrl + 1;
      if (ip + n > end) {
        if (limit === out.length) return -1;
        n = end - ip;
      }
      if (op + n > out.length) return -1;
      out.set(src.subarray(ip, ip + n), op);
      ip += n;
      op += n;
    } else {
      let n = ctrl >>> 5;
      if (n === 7) {
        if (ip >= end) return limit === out.length ? -1 : op;
        n += src[ip++]!;
      }
      if (ip >= end) return limit === out.length ? -1 : op;
      let ref = op - ((ctrl & 0x1f) << 8) - 1 - src[ip++]!;
      n += 2;
      if (ref < 0 || op + n > out.length) return -1;
      // Byte by byte: a back-reference may overlap what it writes (a run).
      for (const stop = op + n; op < stop;) out[op++] = out[ref++]!;
    }
  }
  return op;
}
