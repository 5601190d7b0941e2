import type { RespBuilder } from '../../resp/respBuilder';
import type { KeyTracker } from '../../resp/types';
import type { BatchSink } from './batchSink';

/**
 * Most elements one variadic SADD/ZADD/RPUSH/HSET carries. Redis takes any
 * number, but one command is one reply and one unit of server latency: 1,000
 * keeps the pipeline flowing and a single huge key from stalling it.
 */
export const GROUP_CAP = 1000;

const EXPIRE_HEAD = Buffer.from('*3\r\n$6\r\nEXPIRE\r\n');

/** How one record type's variadic command looks. */
export interface GroupCommand {
  /** The command name as an encoded argument, e.g. `$4\r\nSADD\r\n`. */
  name: Buffer;
  /** Arguments per element: 1 for members, 2 for score+member or field+value. */
  perElement: number;
  /** The ttl as an encoded argument, when EXPIRE should follow each key. */
  ttl?: Buffer | undefined;
}

/**
 * Folds consecutive rows of one key into variadic commands.
 *
 * A run is the rows sharing a key. Its command is written to the batch as
 * soon as its first element comes, and later rows append their elements to
 * it, the `*N` count patched after each row: no element is copied twice and
 * the batch is a valid RESP stream after every row. The sink holds off
 * cutting while the command can still grow. A command closes when the key
 * changes, at GROUP_CAP elements, or once it passes batchBytes (a thousand
 * 1 MB members must not make one 1 GB command: Redis's client query buffer
 * limit is 1 GB); the run then continues in a new command.
 *
 * With a ttl, one EXPIRE follows the run's last command: SADD/RPUSH/HSET on
 * an existing key keep its TTL, so once is enough. A command's line is that
 * of its first row; EXPIRE's is the run's first row.
 */
export class KeyGroups {
  private keyBuf = Buffer.allocUnsafe(256);
  private runKey = Buffer.allocUnsafe(256);
  private runKeyLen = 0;
  private runOpen = false;
  private runLine = 0;
  private wrote = false;
  private tracked = false;
  // The command being grown: where its header is in sink.out, the count written there, its elements.
  private cmdOpen = false;
  private cmdMark = 0;
  private cmdArgc = 0;
  private count = 0;

  constructor(
    private readonly sink: BatchSink,
    private readonly tracker: KeyTracker | undefined,
    private readonly cmd: GroupCommand,
  ) {}

  /** Scratch for the next row's key, at least len bytes; then call row(len). */
  keyScratch(len: number): Buffer {
    if (len > this.keyBuf.length) this.keyBuf = Buffer.allocUnsafe(2 * len);
    return this.keyBuf;
  }

  /** A row whose key is keyScratch()[0, len): continues the run or starts a new one. */
  row(len: number, line: number): void {
    const key = this.keyBuf;
    if (this.runOpen && len === this.runKeyLen && sameBytes(key, this.runKey, len)) return;
    if (this.runOpen) this.endRun();
    // The row's key becomes the run's; the old run key's memory becomes the next scratch.
    this.keyBuf = this.runKey;
    this.runKey = key;
    this.runKeyLen = len;
    this.runOpen = true;
    this.runLine = line;
    this.wrote = false;
    this.tracked = false;
  }

  /** One more element from the row on `line`: the caller then writes its perElement arguments to sink.out. */
  element(line: number): void {
    if (this.cmdOpen && (this.count === GROUP_CAP || this.sink.out.mark - this.cmdMark >= this.sink.batchBytes)) {
      this.closeCommand();
    }
    if (!this.cmdOpen) this.openCommand(line);
    this.count++;
  }

  /** The row's elements are written: bring the command's count up to date. */
  rowDone(): void {
    if (!this.cmdOpen) return;
    const argc = 2 + this.count * this.cmd.perElement;
    if (argc !== this.cmdArgc) {
      this.sink.out.patchCount(this.cmdMark, this.cmdArgc, argc);
      this.cmdArgc = argc;
    }
  }

  /** End of input: close the open run. */
  finish(): void {
    if (this.runOpen) this.endRun();
  }

  private openCommand(line: number): void {
    const out = this.sink.out;
    this.cmdMark = out.mark;
    this.cmdArgc = 2 + this.cmd.perElement;
    out.command(this.cmdArgc);
    out.raw(this.cmd.name);
    this.writeKey(out);
    this.sink.commit(line);
    this.sink.holding = true;
    this.cmdOpen = true;
    this.count = 0;
    this.wrote = true;
  }

  private closeCommand(): void {
    this.rowDone();
    this.cmdOpen = false;
    this.sink.holding = false;
    this.sink.cutIfFull();
  }

  private endRun(): void {
    if (this.cmdOpen) this.closeCommand();
    const ttl = this.cmd.ttl;
    if (ttl && this.wrote) {
      const out = this.sink.out;
      out.raw(EXPIRE_HEAD);
      this.writeKey(out);
      out.raw(ttl);
      this.sink.commit(this.runLine);
      this.sink.cutIfFull();
    }
    this.runOpen = false;
  }

  private writeKey(out: RespBuilder): void {
    const len = this.runKeyLen;
    if (this.tracker && !this.tracked) {
      this.tracker.add(this.runKey, 0, len);
      this.tracked = true;
    }
    out.bulkHeader(len);
    out.raw(this.runKey, 0, len);
    out.end();
  }
}

function sameBytes(a: Buffer, b: Buffer, len: number): boolean {
  for (let i = 0; i < len; i++) if (a[i] !== b[i]) return false;
  return true;
}
