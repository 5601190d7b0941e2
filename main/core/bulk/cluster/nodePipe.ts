import { pipeLoad } from '../../resp/pipeWriter';
import type { RawConnection } from '../../resp/rawConnection';
import type { CommandBatch, PipeProgress, PipeResult } from '../../resp/types';

/** A batch for one master: the commands' bytes with where each starts and its place in the input. */
export interface NodeBatch extends CommandBatch {
  /** Byte offset of each command in `resp`, then the end: count + 1 entries. */
  offsets: Uint32Array;
  /** Input order of each command (a resend keeps its original). */
  seqs: Float64Array;
  /** 1 where the command is an ASKING we added before a redirected command. */
  asking?: Uint8Array;
}

/** A command this pipe sent, as needed to resend it elsewhere. */
export interface SentCommand {
  bytes: Buffer;
  line: number;
  seq: number;
}

export interface NodePipeHooks {
  /** Every error reply, in reply order. `asking` when it answers one of our ASKINGs. */
  onError(pipe: NodePipe, command: SentCommand, message: string, asking: boolean): void;
  /** Something a waiter may care about changed: a batch taken or answered, progress. */
  onChange(): void;
}

interface Sent {
  first: number;
  batch: NodeBatch;
}

/**
 * One master's raw-RESP pipe, fed batch by batch: the engine's pipeLoad on a
 * queue. Redis answers a connection's commands in order, so reply number i
 * belongs to command number i: the batches in flight, in order, name the
 * command behind any error reply.
 */
export class NodePipe {
  readonly result: Promise<PipeResult>;
  /** Commands handed to the socket, ASKINGs included. */
  sent = 0;
  asking = 0;
  errors = 0;
  /** Replies that were MOVED/ASK/TRYAGAIN: commands resent elsewhere. */
  redirected = 0;
  latest: PipeProgress | undefined;
  private readonly queue: NodeBatch[] = [];
  private readonly inFlight: Sent[] = [];
  private outstanding = 0;
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(
    readonly address: string,
    readonly conn: RawConnection,
    opts: { file: string; signal: AbortSignal; maxInFlightCommands?: number },
    private readonly hooks: NodePipeHooks,
  ) {
    this.result = pipeLoad(conn, this.batches(), {
      file: opts.file,
      // Errors are counted across every master by the cluster pipe, which stops the load.
      maxErrors: Number.MAX_SAFE_INTEGER,
      signal: opts.signal,
      ...(opts.maxInFlightCommands === undefined ? {} : { maxInFlightCommands: opts.maxInFlightCommands }),
      onProgress: (p) => {
        this.latest = p;
        hooks.onChange();
      },
      onErrorReply: (index, message) => {
        this.onErrorReply(index, message);
        return true;
      },
    });
    // Settled by whoever awaits it; this only keeps an early rejection from being "unhandled".
    this.result.catch(() => undefined);
  }

  push(batch: NodeBatch): void {
    this.queue.push(batch);
    this.wake?.();
  }

  /** No more batches: the pipe resolves once every command sent is answered. */
  end(): void {
    this.ended = true;
    this.wake?.();
  }

  /** Batches waiting to be sent. */
  get queued(): number {
    return this.queue.length;
  }

  /** Nothing queued and every command sent answered. */
  get idle(): boolean {
    return this.queue.length === 0 && this.outstanding === 0;
  }

  get replies(): number {
    return this.latest?.replies ?? 0;
  }

  private async *batches(): AsyncGenerator<CommandBatch> {
    for (;;) {
      const batch = this.queue.shift();
      if (batch !== undefined) {
        this.inFlight.push({ first: this.sent, batch });
        this.sent += batch.count;
        if (batch.asking !== undefined) for (const a of batch.asking) this.asking += a;
        this.outstanding++;
        // pipeLoad answers a batch's commands in order and releases batches in the order sent.
        batch.release = () => {
          this.inFlight.shift();
          this.outstanding--;
          this.hooks.onChange();
        };
        this.hooks.onChange();
        yield batch;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }

  private onErrorReply(index: number, message: string): void {
    for (const s of this.inFlight) {
      const i = index - s.first;
      if (i < 0 || i >= s.batch.count) continue;
      const { batch } = s;
      const bytes = Buffer.from(batch.resp.subarray(batch.offsets[i], batch.offsets[i + 1]));
      const command = { bytes, line: batch.lines[i] ?? 0, seq: batch.seqs[i] ?? 0 };
      this.hooks.onError(this, command, message, batch.asking?.[i] === 1);
      return;
    }
  }
}
