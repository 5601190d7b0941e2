import type { CommandBatch, LoadErrorEntry, PipeProgress, PipeResult } from './types';
import { Condition } from './condition';
import { InFlightLines } from './inFlightLines';
import { PipeStopped, stopMessage, type PipeStopReason } from './pipeStopped';
import type { RawConnection } from './rawConnection';
import { ReplyParser } from './replyParser';
import { ReplyProtocolError } from './replyProtocolError';

export interface PipeOptions {
  /** Label for error positions: "file:line". */
  file: string;
  /** Error replies tolerated; error number maxErrors + 1 stops the load. */
  maxErrors: number;
  signal?: AbortSignal;
  /** At most every PROGRESS_EVERY_MS while running, and once at the end whatever the outcome. */
  onProgress?(p: PipeProgress): void;
  /** Bound on sent − answered commands, so client memory stays flat however slow the server is. */
  maxInFlightCommands?: number;
  /**
   * Bound on the bytes of those commands: a command may carry 64 rows (an MSET) or 1,000
   * elements, so a command count alone would let 250,000 of them hold gigabytes.
   */
  maxInFlightBytes?: number;
  /**
   * Sees every error reply first (index: the 0-based command on this
   * connection). Returning true takes it over: it is then neither counted nor
   * kept here. A cluster load uses this to resend MOVED/ASK-redirected commands.
   */
  onErrorReply?(index: number, message: string): boolean;
}

export const DEFAULT_MAX_IN_FLIGHT = 250_000;
/** 250,000 SETs of ~130 bytes, the command bound's own footprint: MSETs get the same memory, not 64 times it. */
export const DEFAULT_MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;
export const KEPT_ERRORS = 100;
export const PROGRESS_EVERY_MS = 100;

/**
 * Write the source's batches to the connection and count the replies as they
 * stream back. Resolves once every command sent is answered, with the error
 * replies counted and the first KEPT_ERRORS mapped to `file:line`.
 *
 * Rejects with PipeStopped (see its `stoppedBy`) when the load did not
 * complete — too many errors, cancelled, connection lost, protocol error —
 * and with the source's own error (InputError …) after the in-flight
 * commands are answered when the source throws. Never retries.
 *
 * The caller owns the connection: on success and on an errors stop it is left
 * open (every command answered); cancel, loss and protocol errors destroy it.
 * A batch's `lines` is kept until its replies arrive, so a source must not
 * reuse that array (nor `resp`, which the socket holds until written).
 */
export function pipeLoad(conn: RawConnection, source: AsyncIterable<CommandBatch>, opts: PipeOptions): Promise<PipeResult> {
  return new PipeRun(conn, opts).run(source);
}

class PipeRun {
  private readonly parser: ReplyParser;
  private readonly lines = new InFlightLines();
  private readonly maxInFlight: number;
  private readonly maxInFlightBytes: number;
  /** RESP bytes sent whose batch is not yet all answered. */
  private inFlightBytes = 0;
  private readonly started = performance.now();
  private commands = 0;
  private records = 0;
  private bytesRead = 0;
  private errors = 0;
  private readonly firstErrors: LoadErrorEntry[] = [];
  private tooManyErrors = false;
  private sourceEnded = false;
  private fatal: Error | undefined;
  /** What the writer waits on, re-checked on every socket event. */
  private readonly condition = new Condition();
  private interrupt!: () => void;
  private readonly interrupted = new Promise<undefined>((resolve) => {
    this.interrupt = () => resolve(undefined);
  });

  constructor(
    private readonly conn: RawConnection,
    private readonly opts: PipeOptions,
  ) {
    this.maxInFlight = Math.max(1, opts.maxInFlightCommands ?? DEFAULT_MAX_IN_FLIGHT);
    this.maxInFlightBytes = Math.max(1, opts.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT_BYTES);
    this.parser = new ReplyParser((index, message) => this.onErrorReply(index, message));
  }

  async run(source: AsyncIterable<CommandBatch>): Promise<PipeResult> {
    const { socket } = this.conn;
    const { signal } = this.opts;
    const onData = (chunk: Buffer): void => this.onData(chunk);
    const onDrain = (): void => this.condition.check();
    const onClose = (): void => this.halt('disconnected');
    const onAbort = (): void => this.halt('cancelled');
    socket.on('data', onData);
    socket.on('drain', onDrain);
    socket.on('close', onClose);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted === true) this.halt('cancelled');
    else if (socket.destroyed) this.halt('disconnected');
    let last = '';
    const ticker = setInterval(() => {
      const p = this.progress();
      const key = `${p.commands}/${p.replies}/${p.errors}/${p.records}`;
      if (key !== last) this.report(p);
      last = key;
    }, PROGRESS_EVERY_MS);
    try {
      let sourceError: { err: unknown } | undefined;
      try {
        await this.pump(source[Symbol.asyncIterator]());
      } catch (err) {
        // After a cancel or a lost connection the source's error (an AbortError…) is only an echo.
        if (this.fatal === undefined) sourceError = { err };
      }
      // Every command sent is answered before we return: the caller may then flush or swap safely.
      await this.waitFor(() => this.parser.replies >= this.commands, false);
      if (sourceError !== undefined) throw sourceError.err;
      if (this.fatal !== undefined && !this.closedAfterLastReply()) throw this.fatal;
      if (this.tooManyErrors) {
        throw new PipeStopped('errors', stopMessage('errors', this.result(), this.conn.address, this.opts.maxErrors), this.result());
      }
      return this.result();
    } finally {
      clearInterval(ticker);
      socket.off('data', onData);
      socket.off('drain', onDrain);
      socket.off('close', onClose);
      signal?.removeEventListener('abort', onAbort);
      this.report(this.progress());
    }
  }

  /** Read and write batches until the source ends or the load stops; only the source's errors escape. */
  private async pump(it: AsyncIterator<CommandBatch>): Promise<void> {
    for (;;) {
      // Raced: a stalled source must not delay a cancel or a lost connection.
      const step = await Promise.race([it.next(), this.interrupted]);
      if (step === undefined || this.stopped()) {
        // Not awaited: it settles only after a pending next(), which the source's own signal ends.
        it.return?.().catch(() => undefined);
        return;
      }
      if (step.done === true) {
        this.sourceEnded = true;
        return;
      }
      await this.send(step.value);
    }
  }

  private async send(batch: CommandBatch): Promise<void> {
    // Keep sent − answered ≤ maxInFlight after this write; a batch larger than the bound goes alone.
    const room = Math.max(0, this.maxInFlight - batch.count);
    const bytes = batch.resp.length;
    // A batch larger than the byte bound goes alone, once nothing else is in flight.
    const byteRoom = Math.max(0, this.maxInFlightBytes - bytes);
    await this.waitFor(() => this.commands - this.parser.replies <= room && this.inFlightBytes <= byteRoom, true);
    if (this.stopped()) return;
    this.records = batch.records;
    this.bytesRead = batch.bytesRead;
    if (batch.count === 0) return;
    this.inFlightBytes += bytes;
    const answered = (): void => {
      this.inFlightBytes -= bytes;
      batch.release?.();
    };
    this.lines.push(this.commands, batch.lines, answered, batch.lastLines);
    this.commands += batch.count;
    if (!this.conn.socket.write(batch.resp)) {
      await this.waitFor(() => !this.conn.socket.writableNeedDrain, true);
    }
  }

  private onData(chunk: Buffer): void {
    try {
      this.parser.feed(chunk);
    } catch (err) {
      if (!(err instanceof ReplyProtocolError)) throw err;
      this.halt('protocol', err.message);
      return;
    }
    this.lines.release(this.parser.replies, this.commands);
    this.condition.check();
  }

  private onErrorReply(index: number, message: string): void {
    if (this.opts.onErrorReply?.(index, message) === true) return;
    this.errors++;
    if (this.firstErrors.length < KEPT_ERRORS) {
      this.firstErrors.push({ position: `${this.opts.file}:${this.lines.linesOf(index)}`, message });
    }
    if (this.errors > this.opts.maxErrors && !this.tooManyErrors) {
      // Stop writing, but let the commands already sent be answered: exact counts, and
      // nothing of ours still executing when the orchestrator discards the staging DB.
      this.tooManyErrors = true;
      this.interrupt();
    }
  }

  private halt(reason: PipeStopReason, detail = ''): void {
    if (this.fatal !== undefined) return;
    const r = this.result();
    this.fatal = new PipeStopped(reason, stopMessage(reason, r, this.conn.address, this.opts.maxErrors, detail), r);
    // Cancelled: an RST makes Redis drop the commands still queued for us instead of executing them.
    this.conn.destroy();
    this.interrupt();
    this.condition.check();
  }

  /** A close once the source ended and every command was answered lost nothing. */
  private closedAfterLastReply(): boolean {
    const f = this.fatal;
    const complete = this.sourceEnded && this.parser.replies >= this.commands;
    return complete && f instanceof PipeStopped && f.stoppedBy === 'disconnected';
  }

  private stopped(): boolean {
    return this.fatal !== undefined || this.tooManyErrors;
  }

  /** Resolve when `cond` holds or the load stops (fatally, or also by errors when `orErrorsStop`). */
  private waitFor(cond: () => boolean, orErrorsStop: boolean): Promise<void> {
    return this.condition.until(() => this.fatal !== undefined || (orErrorsStop && this.tooManyErrors) || cond());
  }

  private progress(): PipeProgress {
    return {
      records: this.records,
      commands: this.commands,
      replies: this.parser.replies,
      errors: this.errors,
      bytesRead: this.bytesRead,
    };
  }

  private report(p: PipeProgress): void {
    try {
      this.opts.onProgress?.(p);
    } catch (err) {
      // A throwing progress callback is the caller's bug; surface it as the load's failure.
      if (this.fatal === undefined) {
        this.fatal = err instanceof Error ? err : new Error(String(err));
        this.conn.destroy();
        this.interrupt();
        this.condition.check();
      }
    }
  }

  private result(): PipeResult {
    return { ...this.progress(), firstErrors: [...this.firstErrors], seconds: (performance.now() - this.started) / 1000 };
  }
}
