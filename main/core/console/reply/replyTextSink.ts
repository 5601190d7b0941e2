import { ReplyTextWriter, type AggregateType, type ReplyTextMode, type StringType, type TextPiece } from '../../../../app/replyText';
import { escapeBytes } from '../../text/escapeBytes';
import type { LineType, RespSink } from './respSink';

/** Output is handed on in chunks of about this size: a 2M-field reply is 4M short strings. */
const BATCH_BYTES = 64 * 1024;

/** Text flows into the batch in strings of about this many characters: a write per piece costs more than the piece. */
const TEXT_CHARS = 8 * 1024;

/** The end of the run of printable ASCII other than `"` and `\\` (text that reads the same escaped or not) from `start`. */
function plainUntil(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const b = bytes[i] as number;
    if (b < 0x20 || b > 0x7e || b === 0x5c || b === 0x22) break;
    i++;
  }
  return i;
}

/**
 * escapeBytes, with runs of plain ASCII sliced out whole: escapeBytes builds its text a
 * character at a time, which a 100 MB value with a line break every so often pays dearly.
 * Cutting at an ASCII byte never splits a UTF-8 character (none holds one), so the text is
 * the same as escapeBytes' of the whole.
 */
export function escapeForText(bytes: Uint8Array, quote: boolean): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let out = '';
  for (let i = 0; i < buf.length;) {
    const plainEnd = plainUntil(buf, i, buf.length);
    if (plainEnd > i) out += buf.toString('latin1', i, plainEnd);
    if (plainEnd === buf.length) break;
    let next = plainEnd + 1;
    while (next < buf.length && plainUntil(buf, next, next + 1) === next) next++;
    out += escapeBytes(buf, plainEnd, next, { quote }).text;
    i = next;
  }
  return out;
}

/**
 * Parser events into the reply's text (app/replyText's writer, so a download reads as the
 * page shows it), handed on as Buffers of about 64 KiB. Strings go through as their bytes:
 * raw mode writes them as they are. Attributes are left out (the writer's note says why).
 */
export class ReplyTextSink implements RespSink {
  private readonly writer: ReplyTextWriter;
  private batch = Buffer.allocUnsafe(BATCH_BYTES);
  private pos = 0;
  /** Text pieces joined until there are enough to write. */
  private text = '';
  private skipping = 0;
  /** Bytes handed on so far. */
  written = 0;

  constructor(
    mode: ReplyTextMode,
    private readonly target: (chunk: Buffer) => void,
  ) {
    this.writer = new ReplyTextWriter(mode, (p) => this.put(p), escapeForText);
  }

  line(t: LineType, buf: Buffer, start: number, end: number): void {
    if (this.skipping > 0) return;
    if (t === 'null') this.writer.scalar({ t });
    else if (t === 'boolean') this.writer.scalar({ t, v: buf[start] === 0x74 });
    else if (t === 'simple' || t === 'error') this.writer.scalar({ t, v: escapeForText(buf.subarray(start, end), false) });
    else this.writer.scalar({ t, v: buf.toString('latin1', start, end) });
  }

  stringStart(t: StringType): void {
    if (this.skipping === 0) this.writer.stringStart(t);
  }

  stringPiece(buf: Buffer, start: number, end: number): void {
    if (this.skipping > 0) return;
    // The usual field or value: short ASCII, passed as text without a Buffer view of its own.
    if (this.writer.mode === 'formatted' && end - start <= 256 && plainUntil(buf, start, end) === end)
      this.writer.stringPlain(buf.toString('latin1', start, end));
    else this.writer.stringBytes(buf.subarray(start, end));
  }

  stringEnd(): void {
    if (this.skipping === 0) this.writer.stringEnd();
  }

  open(t: AggregateType, count: number): void {
    if (this.skipping > 0 || t === 'attribute') this.skipping++;
    else this.writer.open(t, count);
  }

  close(): void {
    if (this.skipping > 0) this.skipping--;
    else this.writer.close();
  }

  /** Hand on what is batched. */
  flush(): void {
    this.flushText();
    if (this.pos === 0) return;
    const full = this.batch.subarray(0, this.pos);
    this.batch = Buffer.allocUnsafe(BATCH_BYTES);
    this.pos = 0;
    this.handOn(full);
  }

  private put(piece: TextPiece): void {
    if (typeof piece === 'string') {
      this.text += piece;
      if (this.text.length >= TEXT_CHARS) this.flushText();
    } else {
      this.flushText();
      this.putBytes(piece);
    }
  }

  private flushText(): void {
    const text = this.text;
    if (text === '') return;
    this.text = '';
    // Three bytes a UTF-16 unit at most: text that surely fits is written in place, unmeasured.
    if (text.length * 3 <= this.batch.length - this.pos) this.pos += this.batch.write(text, this.pos, 'utf8');
    else this.putBytes(Buffer.from(text, 'utf8'));
  }

  private putBytes(bytes: Uint8Array): void {
    if (bytes.length > this.batch.length - this.pos) {
      this.flush();
      // Copied: the bytes are a view into a socket chunk the caller may reuse.
      if (bytes.length >= BATCH_BYTES) {
        this.handOn(Buffer.from(bytes));
        return;
      }
    }
    this.batch.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  private handOn(chunk: Buffer): void {
    this.written += chunk.length;
    this.target(chunk);
  }
}
