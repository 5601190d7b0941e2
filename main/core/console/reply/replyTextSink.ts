import { ReplyTextWriter, type AggregateType, type ReplyTextMode, type StringType, type TextPiece } from '../../../../app/replyText';
import { escapeBytes } from '../../text/escapeBytes';
import type { LineType, RespSink } from './respSink';

/** Output is handed on in chunks of about this size: a 2M-field reply is 4M short strings. */
const BATCH_BYTES = 64 * 1024;

/** escapeBytes, with a fast path for the usual printable ASCII that needs no escape. */
export function escapeForText(bytes: Uint8Array, quote: boolean): string {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b < 0x20 || b > 0x7e || b === 0x5c || (quote && b === 0x22)) return escapeBytes(bytes, 0, bytes.length, { quote }).text;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
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
    if (this.skipping === 0) this.writer.stringBytes(buf.subarray(start, end));
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
    if (this.pos === 0) return;
    const full = this.batch.subarray(0, this.pos);
    this.batch = Buffer.allocUnsafe(BATCH_BYTES);
    this.pos = 0;
    this.handOn(full);
  }

  private put(piece: TextPiece): void {
    const space = this.batch.length - this.pos;
    if (typeof piece === 'string') {
      // Three bytes a UTF-16 unit at most: short text is written in place, unmeasured.
      if (piece.length * 3 <= space) {
        this.pos += this.batch.write(piece, this.pos, 'utf8');
        return;
      }
      this.putBytes(Buffer.from(piece, 'utf8'));
    } else {
      this.putBytes(piece);
    }
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
