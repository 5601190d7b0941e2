import type { ServerMessage } from '../../app/wire';

/**
 * One connected client, whatever the transport (Electron IPC, WebSocket,
 * in-memory for tests). Incoming messages are untrusted: `raw` is either a
 * JSON string or an already-structured value, and the dispatcher validates it.
 */
export interface Wire {
  send(m: ServerMessage): void;
  onMessage(cb: (raw: unknown) => void): () => void;
  onClose(cb: () => void): () => void;
  /** True while the transport's own buffer is full; streams then hold back and drop. */
  congested?(): boolean;
}
