import type { BatchSink } from './batchSink';

/**
 * Most key/value pairs one MSET carries, and the bytes past which it closes
 * (a few huge values must not make one huge command). Measured on the bulk
 * bench (1M × 100 B): see the `bulk` row of docs/benchmarks.md.
 */
export const MSET_PAIRS = 64;
export const MSET_BYTES = 64 * 1024;

const MSET_NAME = Buffer.from('$4\r\nMSET\r\n');

/**
 * Folds consecutive string rows without a TTL into MSET commands. `SET k v`
 * with no option and MSET have the same effect on each key (any old value
 * and type replaced, any TTL cleared, pairs applied in order, so a repeated
 * key keeps its last value), but Redis runs one MSET of 64 pairs far faster
 * than 64 SETs: one dispatch and one reply instead of 64.
 *
 * The same pattern as KeyGroups: the command is opened at its first pair,
 * later pairs are appended and the `*N` count patched, and the sink holds
 * off cutting while it can grow. A command's line is its first row's, and
 * its last row's is kept too, so an error reply names the span. MSET is
 * atomic: an error (OOM, ACL) means none of its rows was written.
 *
 * Not for a cluster load: MSET needs all its keys in one slot.
 */
export class MsetRun {
  private open = false;
  private mark = 0;
  private argc = 0;
  private pairs = 0;
  private readonly maxBytes: number;

  constructor(
    private readonly sink: BatchSink,
    private readonly maxPairs = MSET_PAIRS,
  ) {
    this.maxBytes = Math.min(MSET_BYTES, sink.batchBytes);
  }

  /** The row on `line` comes next: the caller then writes its key and value to sink.out, and calls pairDone(). */
  pair(line: number): void {
    const out = this.sink.out;
    if (this.open && (this.pairs >= this.maxPairs || out.mark - this.mark >= this.maxBytes)) this.close();
    if (!this.open) {
      this.mark = out.mark;
      this.argc = 3;
      out.command(3);
      out.raw(MSET_NAME);
      this.sink.commit(line);
      this.sink.holding = true;
      this.open = true;
      this.pairs = 0;
    }
    this.pairs++;
  }

  /** The pair of the row on `line` is written: bring the count and the command's last line up to date. */
  pairDone(line: number): void {
    const argc = 1 + 2 * this.pairs;
    if (argc !== this.argc) {
      this.sink.out.patchCount(this.mark, this.argc, argc);
      this.argc = argc;
      this.sink.extend(line);
    }
  }

  /** End of input. */
  finish(): void {
    if (this.open) this.close();
  }

  private close(): void {
    this.open = false;
    this.sink.holding = false;
    this.sink.cutIfFull();
  }
}
