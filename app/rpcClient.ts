import type { Bridge, StreamHandlers } from './bridge';
import type { CallInput, CallName, CallOutput, StreamEvent, StreamInput, StreamName } from './contract';
import { AppError } from './errors';
import type { ClientMessage, ServerMessage } from './wire';

interface Pending {
  resolve(v: unknown): void;
  reject(e: AppError): void;
}

/**
 * Client half of the RPC protocol, independent of the transport: the owner
 * feeds it server messages (`receive`) and gives it a `send`. Used by the
 * WebSocket bridge and by the Electron preload, so the protocol lives once.
 */
export class RpcClient implements Bridge {
  private seq = 0;
  private readonly pending = new Map<string, Pending>();
  private readonly subs = new Map<string, StreamHandlers<unknown>>();

  constructor(private readonly send: (m: ClientMessage) => void) {}

  private nextId(): string {
    this.seq += 1;
    return `c${this.seq}`;
  }

  invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> {
    const id = this.nextId();
    return new Promise<CallOutput<N>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      try {
        this.send({ t: 'call', id, name, input });
      } catch (e) {
        this.pending.delete(id);
        // The transport's own refusals (a message over the protocol limit) keep their code.
        reject(e instanceof AppError ? e : new AppError('DISCONNECTED', `Could not send ${name}: ${String(e)}`));
      }
    });
  }

  subscribe<N extends StreamName>(name: N, input: StreamInput<N>, handlers: StreamHandlers<StreamEvent<N>>): () => void {
    const id = this.nextId();
    // Registered before the 'sub' leaves, so the first batch cannot arrive unheard.
    this.subs.set(id, handlers as StreamHandlers<unknown>);
    try {
      this.send({ t: 'sub', id, name, input });
    } catch (e) {
      this.subs.delete(id);
      handlers.onEnd?.(e instanceof AppError ? e : new AppError('DISCONNECTED', `Could not subscribe to ${name}: ${String(e)}`));
    }
    return () => {
      if (!this.subs.delete(id)) return;
      try {
        this.send({ t: 'unsub', id });
      } catch {
        // The transport is gone; the server side frees the subscription on close.
      }
    };
  }

  receive(m: ServerMessage): void {
    switch (m.t) {
      case 'result': {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.output);
        else p.reject(AppError.from(m.error));
        return;
      }
      case 'batch':
        this.subs.get(m.id)?.onEvents(m.events, m.dropped);
        return;
      case 'end': {
        const h = this.subs.get(m.id);
        this.subs.delete(m.id);
        h?.onEnd?.(m.error ? AppError.from(m.error) : undefined);
        return;
      }
      case 'error':
        // Not tied to an id: nothing to settle. Surfaced for debugging only.
        return;
    }
  }

  /** The transport closed: every pending call fails and every stream ends. */
  disconnected(reason: string): void {
    const err = new AppError('DISCONNECTED', reason);
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    const subs = [...this.subs.values()];
    this.subs.clear();
    for (const h of subs) h.onEnd?.(err);
  }
}
