import { AppError } from '../../../app/errors';
import type { RawConnection } from '../resp/rawConnection';

export type LinkState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface LinkListener {
  /** A connection is up, the first or a reconnect: write what puts it in its mode (MONITOR, SUBSCRIBE) and reset the reader. */
  opened(conn: RawConnection): void;
  data(chunk: Buffer): void;
  state(state: LinkState, message?: string): void;
  /** After a reconnect: nothing was seen between `from` (the last thing seen, or the drop) and `to`. */
  gap(from: number, to: number, reason: string): void;
  /** The connection could not be made the first time, or the server refused the mode: no retry. */
  fatal(err: AppError): void;
}

const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 5000;

/**
 * One long-lived raw connection to one node that pushes to us (MONITOR, Pub/Sub). The
 * socket is read continuously, never paused, so the server's output buffer for it stays
 * small however slow the viewers are: slowness is paid in dropped items downstream,
 * never in server memory. Once it has been live it reconnects with backoff and reports
 * the gap with both times; a first connection that fails is fatal.
 */
export class LiveLink {
  state: LinkState = 'connecting';
  /** When the reader last saw something (ms since the epoch): the start of a gap if the link drops. */
  lastSeen: number | undefined;
  private conn: RawConnection | undefined;
  private stopped = false;
  private everLive = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private backoff = BACKOFF_MIN_MS;
  private gapFrom: number | undefined;
  private gapReason: string | undefined;

  constructor(
    readonly address: string,
    private readonly open: () => Promise<RawConnection>,
    private readonly listener: LinkListener,
  ) {}

  /** The connection's CLIENT ID, e.g. to find it in CLIENT LIST. */
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

  /** Write on the live connection; false when there is none (the next `opened` writes afresh). */
  write(bytes: Buffer): boolean {
    if (this.conn === undefined || this.stopped) return false;
    this.conn.socket.write(bytes);
    return true;
  }

  /** The server refused what `opened` asked for: drop the connection, report, never retry. */
  refuse(err: AppError): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.conn?.destroy();
    this.conn = undefined;
    this.listener.fatal(err);
  }

  private setState(s: LinkState, message?: string): void {
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
    const upAt = Date.now();
    const wasLive = this.everLive;
    conn.socket.on('data', (chunk: Buffer) => {
      if (this.conn === conn) this.listener.data(chunk);
    });
    conn.socket.once('close', () => {
      if (this.conn !== conn || this.stopped) return;
      this.conn = undefined;
      this.scheduleRetry(`connection to ${this.address} closed`);
    });
    this.listener.opened(conn);
    if (this.stopped) return;
    this.everLive = true;
    this.backoff = BACKOFF_MIN_MS;
    if (wasLive && this.gapFrom !== undefined) {
      this.listener.gap(this.gapFrom, upAt, this.gapReason ?? 'reconnected');
      this.gapFrom = undefined;
    }
    this.setState('live');
  }

  private scheduleRetry(reason: string): void {
    if (this.stopped) return;
    this.gapFrom ??= this.lastSeen ?? Date.now();
    this.gapReason = reason;
    this.setState('reconnecting', reason);
    const wait = this.backoff;
    this.backoff = Math.min(BACKOFF_MAX_MS, this.backoff * 2);
    this.retryTimer = setTimeout(() => void this.connect(), wait);
  }
}
