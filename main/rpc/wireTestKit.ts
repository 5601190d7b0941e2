import type { ClientMessage, ServerMessage } from '../../app/wire';
import type { Wire } from './wire';

export interface MemoryClientEnd {
  send(m: ClientMessage | string): void;
  onMessage(cb: (m: ServerMessage) => void): () => void;
  close(): void;
  /** Simulate a transport whose buffer is full. */
  setCongested(v: boolean): void;
}

/**
 * An in-memory transport pair for dispatcher tests. Messages cross as JSON
 * text on a later microtask, as they would over a socket, so tests see the
 * same serialisation and asynchrony as the real adapters.
 */
export function createMemoryWirePair(): { server: Wire; client: MemoryClientEnd } {
  const toServer = new Set<(raw: unknown) => void>();
  const toClient = new Set<(m: ServerMessage) => void>();
  const closeCbs = new Set<() => void>();
  let closed = false;
  let congested = false;

  const server: Wire = {
    send(m) {
      if (closed) return;
      const text = JSON.stringify(m);
      queueMicrotask(() => {
        if (!closed) for (const cb of toClient) cb(JSON.parse(text) as ServerMessage);
      });
    },
    onMessage(cb) {
      toServer.add(cb);
      return () => toServer.delete(cb);
    },
    onClose(cb) {
      closeCbs.add(cb);
      return () => closeCbs.delete(cb);
    },
    congested: () => congested,
  };

  const client: MemoryClientEnd = {
    send(m) {
      const text = typeof m === 'string' ? m : JSON.stringify(m);
      queueMicrotask(() => {
        if (!closed) for (const cb of toServer) cb(text);
      });
    },
    onMessage(cb) {
      toClient.add(cb);
      return () => toClient.delete(cb);
    },
    close() {
      if (closed) return;
      closed = true;
      for (const cb of closeCbs) cb();
    },
    setCongested(v) {
      congested = v;
    },
  };
  return { server, client };
}
