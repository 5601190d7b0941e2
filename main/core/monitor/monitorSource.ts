import type { Socket } from 'node:net';
import { AppError } from '../../../app/errors';
import type { RawConnection } from '../resp/rawConnection';
import { MonitorLineError, parseMonitorLine, type MonitorEntry } from './monitorLine';

export type SourceState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface SourceListener {
  entry(e: MonitorEntry): void;
  state(state: SourceState, message?: string): void;
  /** After a reconnect: no lines were seen between `from` (the last line's time, or the drop) and `to`. */
  gap(from: number, to: number, reason: string): void;
  /** The connection could not be made (first time) or the server refused MONITOR: no retry. */
  fatal(err: AppError): void;
}

const CR = 0x0d;
const LF = 0x0a;
const PLUS = 0x2b;
const MINUS = 0x2d;
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 5000;

/**
 * One MONITOR connection to one node. It reads the socket continuously (the
 * stream is never paused), so the server's output buffer for this client stays
 * small however slow the viewers are: slowness is paid in dropped lines
 * downstream, never in server memory. Reconnects with backoff once it has been
 * live, and reports the gap with both times.
 */
export class MonitorSource {
  /** Lines received from the server since start (parsed or not). */
  received = 0;
  /** Lines that did not parse (counted, skipped). */
  unparsed = 0;
  state: SourceState = 'connecting';
  private conn: RawConnection | undefined;
  private carry: Buffer | undefined;
  private stopped = false;
  private everLive = false;
  private lastTs: number | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private backoff = BACKOFF_MIN_MS;

  constructor(
    readonly address: string,
    private readonly open: () => Promise<RawConnection>,
    private readonly listener: SourceListener,
  ) {}

  /** The connection's name-independent handle, e.g. to find it in CLIENT LIST. */
  get clientId(): number | undefined {
    return this.conn?.clientId;
  }

  start(): void {
    void this.connect();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.conn?.destroy();
    this.conn = undefined;
    this.setState('stopped');
  }

  private setState(s: SourceState, message?: string): void {
    this.state = s;
    this.listener.state(s, message);
  }

  private async connect(): Promise<void> {
    let conn: RawConnection;
    try {
      conn = await this.open();
    } catch (err) {
      if (this.stopped) return;
      const e = err instanceof AppError ? err : new AppError('UNREACHABLE', String(err));
      if (!this.everLive) {
        this.stopped = true;
        this.listener.fatal(e);
        return;
      }
      this.scheduleRetry(e.message);
      return;
    }
    if (this.stopped) {
      conn.destroy();
      return;
    }
    this.conn = conn;
    this.carry = undefined;
    const upAt = Date.now();
    const wasLive = this.everLive;
    conn.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    conn.socket.once('close', () => {
      if (this.conn !== conn || this.stopped) return;
      this.conn = undefined;
      this.scheduleRetry(`connection to ${this.address} closed`);
    });
    conn.socket.write('*1\r\n$7\r\nMONITOR\r\n');
    this.everLive = true;
    this.backoff = BACKOFF_MIN_MS;
    if (wasLive && this.gapFrom !== undefined) {
      this.listener.gap(this.gapFrom, upAt, this.gapReason ?? 'reconnected');
      this.gapFrom = undefined;
    }
    this.setState('live');
  }

  private gapFrom: number | undefined;
  private gapReason: string | undefined;

  private scheduleRetry(reason: string): void {
    if (this.stopped) return;
    this.gapFrom ??= this.lastTs ?? Date.now();
    this.gapReason = reason;
    this.setState('reconnecting', reason);
    const wait = this.backoff;
    this.backoff = Math.min(BACKOFF_MAX_MS, this.backoff * 2);
    this.retryTimer = setTimeout(() => void this.connect(), wait);
  }

  private onData(chunk: Buffer): void {
    let buf = chunk;
    if (this.carry !== undefined) {
      buf = Buffer.concat([this.carry, chunk]);
      this.carry = undefined;
    }
    let pos = 0;
    const end = buf.length;
    while (pos < end) {
      const lf = buf.indexOf(LF, pos);
      if (lf < 0) break;
      const lineEnd = lf > pos && buf[lf - 1] === CR ? lf - 1 : lf;
      this.onLine(buf, pos, lineEnd);
      pos = lf + 1;
    }
    if (pos < end) this.carry = buf.subarray(pos);
  }

  private onLine(buf: Buffer, start: number, end: number): void {
    const first = buf[start];
    if (first === MINUS) {
      // MONITOR refused (NOPERM, or a replica-only restriction): retrying would not help.
      const message = buf.toString('utf8', start + 1, end);
      this.stopped = true;
      this.conn?.destroy();
      this.listener.fatal(new AppError(message.startsWith('NOPERM') ? 'FORBIDDEN' : 'INTERNAL', `${this.address} refused MONITOR: ${message}`));
      return;
    }
    if (first !== PLUS) return;
    if (end - start === 3 && buf[start + 1] === 0x4f && buf[start + 2] === 0x4b) return; // +OK to MONITOR
    this.received++;
    let e: MonitorEntry;
    try {
      e = parseMonitorLine(buf, start + 1, end);
    } catch (err) {
      if (!(err instanceof MonitorLineError)) throw err;
      this.unparsed++;
      return;
    }
    this.lastTs = e.ts;
    this.listener.entry(e);
  }

  /** For tests: the socket, to break it. */
  socketForTest(): Socket | undefined {
    return this.conn?.socket;
  }
}
