import type { AggregateType, StringType } from '../../../../app/replyText';

/** One-line values: `+ - : , ( # _` (and RESP2's `$-1` / `*-1`, which come as null). */
export type LineType = 'simple' | 'error' | 'integer' | 'double' | 'bignum' | 'boolean' | 'null';

/**
 * What the streaming parser reports, in reply order. Byte ranges are views into the chunk
 * being parsed: copy what must outlive the call. An aggregate's `count` is its items, or a
 * map's (an attribute's) entries; its values follow, then close(). An attribute annotates the
 * value after it and is not one of its parent's items.
 */
export interface RespSink {
  line(t: LineType, buf: Buffer, start: number, end: number): void;
  /** `$ ! =`: `bytes` of string follow in pieces (a verbatim string's `txt:` is in `format`, not in the bytes). */
  stringStart(t: StringType, bytes: number, format: string): void;
  stringPiece(buf: Buffer, start: number, end: number): void;
  stringEnd(): void;
  open(t: AggregateType, count: number): void;
  close(): void;
}
