import { RespBuilder } from '../../resp/respBuilder';
import type { CommandBatch } from '../../resp/types';

export const DEFAULT_BATCH_BYTES = 512 * 1024;

/**
 * Where a source's commands go: the encoded bytes (`out`), the input line of
 * each command, and the batches cut from them once they reach batchBytes.
 * Sources call commit() after each complete command and advance() after each
 * input record; a batch therefore always holds whole commands.
 */
export class BatchSink {
  readonly out: RespBuilder;
  readonly batchBytes: number;
  /** Input offset of data[0] in the buffer being parsed; set by the driver. */
  base = 0;
  private lines = new Uint32Array(4096);
  /** Each command's last input line; read only when some command spans several (`spans`). */
  private lastLines = new Uint32Array(4096);
  private spans = false;
  private count = 0;
  private records = 0;
  private bytesRead = 0;
  private ready: CommandBatch[] = [];

  constructor(batchBytes = DEFAULT_BATCH_BYTES) {
    this.batchBytes = Math.max(1, batchBytes);
    // A slab of several batches: take() then hands out slices without allocating.
    this.out = new RespBuilder(Math.max(1 << 20, 4 * this.batchBytes));
  }

  /** One more command, starting on input line `line`, is complete in `out`. */
  commit(line: number): void {
    if (this.count === this.lines.length) {
      this.lines = grow(this.lines);
      this.lastLines = grow(this.lastLines);
    }
    this.lastLines[this.count] = line;
    this.lines[this.count++] = line;
  }

  /** The last committed command (still growing, see `holding`) now also holds the row on `line`. */
  extend(line: number): void {
    if (this.count === 0) return;
    this.lastLines[this.count - 1] = line;
    this.spans = true;
  }

  /**
   * A record ended at `pos` in the data being parsed; `records` is the
   * cumulative count. Cuts a batch once the bytes reach the target.
   */
  advance(records: number, pos: number): void {
    this.records = records;
    this.bytesRead = this.base + pos;
    if (!this.holding && this.out.size >= this.batchBytes) this.cut();
  }

  /**
   * While set, the last command in `out` may still grow (KeyGroups appends
   * rows of the same key to it), so no batch is cut; whoever set it calls
   * cutIfFull() on clearing it.
   */
  holding = false;

  /** Cut if the target is reached, with the records and position of the last advance(). */
  cutIfFull(): void {
    if (!this.holding && this.out.size >= this.batchBytes) this.cut();
  }

  /** Cut what is committed into a batch (nothing when empty). */
  cut(): void {
    if (this.count === 0) return;
    const resp = this.out.take();
    const out = this.out;
    this.ready.push({
      resp,
      release: () => out.recycle(resp),
      count: this.count,
      lines: this.lines.slice(0, this.count),
      ...(this.spans ? { lastLines: this.lastLines.slice(0, this.count) } : {}),
      records: this.records,
      bytesRead: this.bytesRead,
    });
    this.count = 0;
    this.spans = false;
  }

  /** The batches cut since the last call, oldest first. */
  drain(): CommandBatch[] {
    const out = this.ready;
    if (out.length > 0) this.ready = [];
    return out;
  }
}

function grow(a: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const grown = new Uint32Array(a.length * 2);
  grown.set(a);
  return grown;
}
