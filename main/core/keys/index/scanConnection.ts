import { AppError } from '../../../../app/errors';
import { toAppError, type ErrorContext } from '../../pool/redisErrors';
import type { RawConnection } from '../../resp/rawConnection';

/** Where one key of a reply lies: buf[start, end). Only valid during the callback. */
export type KeyVisitor = (buf: Buffer, start: number, end: number) => void;

const CR = 0x0d;
const MINUS = 0x2d;
const ZERO = 0x30;

/**
 * SCAN over a raw socket, its replies read in place: each key is handed over as a range of
 * the reply's bytes, with no Buffer object per key. With a Buffer per key (RespPipe) a million
 * keys spent about a third of the build's CPU in the garbage collector. One SCAN at a time:
 * `send` the next before visiting this one's keys, so the server works while Node counts.
 */
export class ScanConnection {
  private buf: Buffer = Buffer.alloc(0);
  private waiter: { resolve: (r: ScanReply) => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;
  // Reused between replies: the offsets of the keys of the reply being parsed.
  private starts = new Int32Array(4096);
  private ends = new Int32Array(4096);

  constructor(
    private readonly conn: RawConnection,
    private readonly ctx: ErrorContext,
    /** What a dropped connection means for the job, after "The connection to host:port closed ". */
    closedNote = 'during the key index build; nothing was changed on the server.',
  ) {
    conn.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    conn.socket.on('close', () => this.fail(new AppError('DISCONNECTED', `The connection to ${conn.address} closed ${closedNote}`)));
  }

  /**
   * Send `SCAN cursor [MATCH pattern] COUNT count`; resolves with the reply (its keys visited by
   * `visit`). With `match` (bulk key actions) the server filters, so only matching names cross.
   */
  send(cursor: string, count: number, match?: Buffer): Promise<ScanReply> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.waiter !== null) return Promise.reject(new AppError('INTERNAL', 'one SCAN at a time on a scan connection'));
    const c = String(count);
    const head = `$4\r\nSCAN\r\n$${cursor.length}\r\n${cursor}\r\n`;
    const tail = `$5\r\nCOUNT\r\n$${c.length}\r\n${c}\r\n`;
    if (match === undefined) this.conn.socket.write(`*4\r\n${head}${tail}`, 'latin1');
    else
      this.conn.socket.write(
        Buffer.concat([Buffer.from(`*6\r\n${head}$5\r\nMATCH\r\n$${match.length}\r\n`, 'latin1'), match, Buffer.from(`\r\n${tail}`, 'latin1')]),
      );
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** A command with a one-number reply (DBSIZE). */
  async dbsize(): Promise<number> {
    if (this.failure !== null) throw this.failure;
    this.conn.socket.write('*1\r\n$6\r\nDBSIZE\r\n');
    const r = await new Promise<ScanReply>((resolve, reject) => (this.waiter = { resolve, reject }));
    return r.number;
  }

  close(): Promise<void> {
    return this.conn.close();
  }

  destroy(): void {
    this.conn.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    try {
      const r = this.parse();
      if (r === null) return;
      const w = this.waiter;
      this.waiter = null;
      if (w === null) throw new AppError('INTERNAL', 'The server sent a reply nobody asked for; the scan connection is out of step.');
      w.resolve(r);
    } catch (e) {
      this.fail(e instanceof Error ? e : new Error(String(e)));
      this.conn.destroy();
    }
  }

  /** A whole reply at the head of `buf`, consumed; null while it is incomplete. */
  private parse(): ScanReply | null {
    const b = this.buf;
    let p = 0;
    // The number after a type byte, read digit by digit: a string and a Number() per key
    // (each name's `$len` line) cost a million-key walk ~60 ms of CPU and garbage.
    const line = (): number | null => {
      let at = p + 1;
      let negative = false;
      if (b[at] === MINUS) {
        negative = true;
        at++;
      }
      let n = 0;
      for (; at < b.length; at++) {
        const c = b[at] as number;
        if (c === CR) break;
        n = n * 10 + (c - ZERO);
      }
      if (at + 1 >= b.length) return null;
      p = at + 2;
      return negative ? -n : n;
    };
    if (b.length === 0) return null;
    const kind = b[0];
    if (kind === 0x2d) {
      const at = b.indexOf(CR);
      if (at < 0) return null;
      throw toAppError(new Error(b.toString('utf8', 1, at)), this.ctx);
    }
    if (kind === 0x3a) {
      const n = line();
      if (n === null) return null;
      this.buf = b.subarray(p);
      return new ScanReply(n, '0', b, this.starts, this.ends, 0);
    }
    if (kind !== 0x2a) throw new AppError('INTERNAL', 'SCAN answered with something other than [cursor, keys]');
    if (line() === null) return null;
    const cursorLen = line();
    if (cursorLen === null || p + cursorLen + 2 > b.length) return null;
    const cursor = b.toString('latin1', p, p + cursorLen);
    p += cursorLen + 2;
    const keys = line();
    if (keys === null) return null;
    if (keys > this.starts.length) {
      this.starts = new Int32Array(keys);
      this.ends = new Int32Array(keys);
    }
    for (let i = 0; i < keys; i++) {
      const len = line();
      if (len === null || p + len + 2 > b.length) return null;
      this.starts[i] = p;
      this.ends[i] = p + len;
      p += len + 2;
    }
    this.buf = b.subarray(p);
    return new ScanReply(0, cursor, b, this.starts, this.ends, keys);
  }

  private fail(e: Error): void {
    this.failure ??= e;
    const w = this.waiter;
    this.waiter = null;
    w?.reject(this.failure);
  }
}

export class ScanReply {
  constructor(
    readonly number: number,
    readonly cursor: string,
    private readonly buf: Buffer,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    readonly keyCount: number,
  ) {}

  /** Each key's bytes, in place; call before the next reply is read (the offsets are reused). */
  visit(f: KeyVisitor): void {
    for (let i = 0; i < this.keyCount; i++) f(this.buf, this.starts[i] as number, this.ends[i] as number);
  }
}
