import type { CallArgs, CallName, CallOutput, StreamArgs, StreamEvent, StreamName } from '../../app/contract';
import type { AppError } from '../../app/errors';
import type { Session } from './session';

export interface CallContext {
  session: Session;
  /** Aborted when the client goes away, so long calls can stop early. */
  signal: AbortSignal;
}

export interface StreamSink<E> {
  push(event: E): void;
  /** End the stream from the server side (after delivering what is queued). */
  end(error?: AppError): void;
  readonly signal: AbortSignal;
  /**
   * Events pushed but not yet delivered (the transport is slow, or the batch
   * interval has not come). A producer that can drop with an exact count of its
   * own (MONITOR lines) checks this instead of relying on the queue's drops.
   */
  readonly backlog: number;
}

export type CallHandler<N extends CallName> = (args: CallArgs<N>, ctx: CallContext) => Promise<CallOutput<N>> | CallOutput<N>;

/** Starts producing into `sink`; returns the cleanup run on unsubscribe or disconnect. */
export type StreamHandler<N extends StreamName> = (
  args: StreamArgs<N>,
  sink: StreamSink<StreamEvent<N>>,
  ctx: CallContext,
) => (() => void) | Promise<() => void>;

export type Handlers = { [N in CallName]: CallHandler<N> } & { [N in StreamName]: StreamHandler<N> };
