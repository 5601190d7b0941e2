import type { Bridge, StreamHandlers } from '../../app/bridge';
import type { CallInput, CallName, CallOutput, StreamEvent, StreamInput, StreamName } from '../../app/contract';
import type { ClientBridge, LinkStatus } from './link';
import { toAppError } from './toAppError';

const OPEN: LinkStatus = { state: 'open', epoch: 1, attempt: 0 };

/**
 * The desktop build: `window.bridge` comes from the preload. IPC to our own main
 * process does not drop, so the link is always open. Errors are normalised because
 * contextBridge strips `code` and `field` from Error objects it copies.
 */
export class IpcBridge implements ClientBridge {
  readonly transport = 'ipc' as const;

  constructor(private readonly inner: Bridge) {}

  invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> {
    return this.inner.invoke(name, input).catch((e: unknown) => {
      throw toAppError(e);
    });
  }

  subscribe<N extends StreamName>(name: N, input: StreamInput<N>, handlers: StreamHandlers<StreamEvent<N>>): () => void {
    return this.inner.subscribe(name, input, {
      onEvents: (events, dropped) => handlers.onEvents(events, dropped),
      onEnd: (error) => handlers.onEnd?.(error === undefined ? undefined : toAppError(error)),
    });
  }

  status(): LinkStatus {
    return OPEN;
  }

  onStatus(): () => void {
    return () => {};
  }

  retryNow(): void {}
}
