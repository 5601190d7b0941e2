import { AppError } from '../../../app/errors';
import type { RawConnection } from './rawConnection';
import { toAppError, type ErrorContext } from '../pool/redisErrors';
import { ReplyReader, type Reply, type ReplyError } from './replyReader';

interface Waiter {
  left: number;
  /** Bulk strings in these replies as latin1 text (see ReplyReader.bulkAsText). */
  text: boolean;
  replies: Reply[];
  resolve: (r: Reply[]) => void;
  reject: (e: Error) => void;
}

/**
 * Pipelined request/reply over a raw socket: send() writes ready-encoded
 * commands and resolves with their replies, in order, however many writes
 * are in flight. ioredis builds a Command object and a promise per command,
 * and at the five commands a key a census sends that costs the client several
 * times the server's own work (docs/benchmarks.md, sampling).
 */
export class RespPipe {
  private readonly waiting: Waiter[] = [];
  private head = 0;
  private readonly reader = new ReplyReader();
  private failure: Error | null = null;

  constructor(
    private readonly conn: RawConnection,
    private readonly ctx: ErrorContext,
    /** What a dropped connection means for the job, after "The connection to host:port closed ". */
    closedNote = 'during sampling; nothing was changed on the server.',
  ) {
    const { socket } = conn;
    socket.on('data', (chunk: Buffer) => {
      try {
        this.reader.feed(chunk, this.onReply);
      } catch (e) {
        this.fail(e instanceof Error ? e : new Error(String(e)));
        conn.destroy();
      }
    });
    socket.on('close', () => this.fail(new AppError('DISCONNECTED', `The connection to ${conn.address} closed ${closedNote}`)));
  }

  get address(): string {
    return this.conn.address;
  }

  /**
   * Write `payload` (`count` commands) and resolve with their `count` replies;
   * with `text`, bulk strings come as latin1 strings, not Buffers.
   */
  send(payload: Buffer, count: number, text = false): Promise<Reply[]> {
    if (this.failure) return Promise.reject(this.failure);
    if (count === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.waiting.push({ left: count, text, replies: [], resolve, reject });
      if (this.waiting.length - this.head === 1) this.reader.bulkAsText = text;
      // One chunk of replies finishes several groups at once, and each sends its next round:
      // corked until the end of this tick, they leave in one writev instead of one syscall each.
      if (!this.corked) {
        this.corked = true;
        this.conn.socket.cork();
        process.nextTick(this.uncork);
      }
      this.conn.socket.write(payload);
    });
  }

  private corked = false;
  private readonly uncork = (): void => {
    this.corked = false;
    this.conn.socket.uncork();
  };

  /** An error reply as the AppError a run fails with (NOPERM, LOADING, …), naming the server. */
  errorOf(reply: ReplyError): AppError {
    return toAppError(new Error(reply.message), this.ctx);
  }

  close(): Promise<void> {
    return this.conn.close();
  }

  destroy(): void {
    this.conn.destroy();
  }

  private readonly onReply = (r: Reply): void => {
    const w = this.waiting[this.head];
    if (w === undefined) {
      this.fail(new AppError('INTERNAL', 'The server sent a reply nobody asked for; the sampling connection is out of step.'));
      this.conn.destroy();
      return;
    }
    w.replies.push(r);
    if (--w.left > 0) return;
    this.head++;
    this.reader.bulkAsText = this.waiting[this.head]?.text ?? false;
    // A drained queue starts over, so a caller sending one batch at a time holds no finished
    // batch (an export of 1M keys kept ~350 pages of DUMP replies alive, 310 MB RSS, before this).
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      // Compact now and then rather than shift() on every batch.
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    w.resolve(w.replies);
  };

  private fail(e: Error): void {
    this.failure ??= e;
    const pending = this.waiting.splice(this.head);
    this.waiting.length = 0;
    this.head = 0;
    for (const w of pending) w.reject(this.failure);
  }
}
