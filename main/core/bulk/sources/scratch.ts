/**
 * Bytes a parser produces for the current record (unescaped quoted text,
 * stringified JSON values) that a Row then points into. When it fills up it
 * is replaced rather than grown in place, so ranges the Row already holds
 * stay valid until the record is done; reset() then reuses the memory.
 */
export class Scratch {
  buf: Buffer;
  len = 0;

  constructor(size = 4096) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Make room for n more bytes at len. */
  reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    this.buf = Buffer.allocUnsafe(Math.max(2 * this.buf.length, n));
    this.len = 0;
  }

  /** Append a string as UTF-8; returns where its bytes start in buf (they end at len). */
  writeString(s: string): number {
    this.reserve(3 * s.length);
    const start = this.len;
    this.len += this.buf.write(s, start, 'utf8');
    return start;
  }

  reset(): void {
    this.len = 0;
  }
}
