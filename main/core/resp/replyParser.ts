import { ReplyProtocolError } from './replyProtocolError';

/**
 * Incremental RESP2 reply parser for the bulk pipe: counts complete top-level
 * replies and hands out error replies with the index of the reply they belong
 * to. Values are skipped, never decoded, so the hot path (`+OK\r\n` a million
 * times) allocates nothing. Chunks may split a reply at any byte.
 *
 * Only RESP2: the pipe never sends HELLO 3, and a RESP3 type byte means the
 * reply stream can no longer be matched to commands (ReplyProtocolError).
 */

const CR = 13;
const LF = 10;
const PLUS = 43; // +  simple string
const MINUS = 45; // - error
const COLON = 58; // : integer
const DOLLAR = 36; // $ bulk string
const STAR = 42; // *  array

/** Where the parser stopped between two chunks. */
const State = { Type: 0, SkipLine: 1, ErrorLine: 2, Length: 3, Bulk: 4 } as const;
type State = (typeof State)[keyof typeof State];

/**
 * `index` is the 0-based top-level reply the error belongs to. Errors nested
 * in an array (EXEC's results, a script's table) are reported too, with the
 * index of the array reply: a queued command that failed inside MULTI/EXEC is
 * a failed write even though EXEC itself succeeded. redis-cli --pipe only
 * counts top-level errors and would miss those.
 */
export type ErrorReplyHandler = (index: number, message: string) => void;

export class ReplyParser {
  /** Complete top-level replies parsed so far. */
  replies = 0;
  private state: State = State.Type;
  /** Elements still expected per open array, innermost last (`depth` entries in use). */
  private pending: number[] = [];
  private depth = 0;
  private lengthOfArray = false;
  private negative = false;
  private length = 0;
  private bulkLeft = 0;
  private errorParts: Buffer[] = [];

  constructor(private readonly onError: ErrorReplyHandler) {}

  /** Consume one chunk; throws ReplyProtocolError on bytes that cannot start a reply. */
  feed(buf: Buffer): void {
    const n = buf.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case State.Type: {
          const t = buf[i];
          if (t === PLUS || t === COLON) {
            // Hot path: a simple string or integer; its value is not needed.
            let j = i + 1;
            while (j < n && buf[j] !== LF) j++;
            if (j === n) {
              this.state = State.SkipLine;
              return;
            }
            i = j + 1;
            if (this.depth === 0) this.replies++;
            else this.elementDone();
          } else if (t === DOLLAR || t === STAR) {
            this.lengthOfArray = t === STAR;
            this.negative = false;
            this.length = 0;
            this.state = State.Length;
            i++;
          } else if (t === MINUS) {
            this.state = State.ErrorLine;
            i++;
          } else {
            throw new ReplyProtocolError(`unexpected byte 0x${(t ?? 0).toString(16).padStart(2, '0')} where a RESP2 reply type (+ - : $ *) was expected`);
          }
          break;
        }
        case State.SkipLine: {
          while (i < n && buf[i] !== LF) i++;
          if (i === n) return;
          i++;
          this.state = State.Type;
          this.elementDone();
          break;
        }
        case State.ErrorLine: {
          let j = i;
          while (j < n && buf[j] !== LF) j++;
          // Copied: the caller may reuse its chunk once feed() returns.
          if (j > i) this.errorParts.push(Buffer.from(buf.subarray(i, j)));
          if (j === n) return;
          i = j + 1;
          this.state = State.Type;
          this.emitError();
          break;
        }
        case State.Length: {
          // Lengths are tiny and rare next to +OK: a plain per-byte loop is enough.
          for (;;) {
            if (i === n) return;
            const b = buf[i++] ?? 0;
            if (b === LF) break;
            if (b === CR) continue;
            if (b === MINUS) this.negative = true;
            else if (b >= 48 && b <= 57) this.length = this.length * 10 + (b - 48);
            else throw new ReplyProtocolError(`unexpected byte 0x${b.toString(16)} in a RESP length`);
          }
          this.state = State.Type;
          this.lengthDone();
          break;
        }
        case State.Bulk: {
          const take = Math.min(this.bulkLeft, n - i);
          i += take;
          this.bulkLeft -= take;
          if (this.bulkLeft === 0) {
            this.state = State.Type;
            this.elementDone();
          }
          break;
        }
      }
    }
  }

  /** Whether the parser is between replies (no partial reply buffered). */
  idle(): boolean {
    return this.state === State.Type && this.depth === 0;
  }

  private lengthDone(): void {
    // `$-1` (null bulk) and `*-1` (null array, e.g. a timed-out BLPOP) carry no body.
    const len = this.negative ? -this.length : this.length;
    if (this.lengthOfArray) {
      if (len <= 0) {
        this.elementDone();
      } else {
        this.pending[this.depth++] = len;
      }
    } else if (len < 0) {
      this.elementDone();
    } else {
      // The body is followed by CRLF, skipped with it.
      this.bulkLeft = len + 2;
      this.state = State.Bulk;
    }
  }

  private emitError(): void {
    const parts = this.errorParts;
    const line = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    this.errorParts = [];
    const end = line.length > 0 && line[line.length - 1] === CR ? line.length - 1 : line.length;
    this.onError(this.replies, line.toString('utf8', 0, end));
    this.elementDone();
  }

  /** One value finished: close every array it completes, and count a finished top-level reply. */
  private elementDone(): void {
    while (this.depth > 0) {
      const left = (this.pending[this.depth - 1] ?? 1) - 1;
      if (left > 0) {
        this.pending[this.depth - 1] = left;
        return;
      }
      this.depth--;
    }
    this.replies++;
  }
}
