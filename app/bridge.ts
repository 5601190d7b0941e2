import type { CallInput, CallName, CallOutput, StreamEvent, StreamInput, StreamName } from './contract';
import type { AppError } from './errors';

export interface StreamHandlers<E> {
  /** A server-side batch; `dropped` is the running total of events dropped for this subscription. */
  onEvents(events: E[], dropped: number): void;
  /** The stream ended: by the server, by an error, or because the transport went away. */
  onEnd?(error?: AppError): void;
}

/**
 * The only way the renderer talks to the Node side. Two implementations
 * (Electron preload over IPC, WebSocket for the web build); pages never know which.
 */
export interface Bridge {
  invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>>;
  /** Returns an unsubscribe function; subscribing happens before any event is produced. */
  subscribe<N extends StreamName>(name: N, input: StreamInput<N>, handlers: StreamHandlers<StreamEvent<N>>): () => void;
}
