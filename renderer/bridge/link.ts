import type { Bridge } from '../../app/bridge';

/**
 * How the renderer's link to the Node side is doing. IPC is always `open`;
 * the WebSocket goes `connecting` -> `open` -> `reconnecting` -> `open` ...
 */
export type LinkState = 'connecting' | 'open' | 'reconnecting';

export interface LinkStatus {
  readonly state: LinkState;
  /** Counts successful opens; hooks re-fetch and re-subscribe when it changes. */
  readonly epoch: number;
  /** Failed attempts since the last open. */
  readonly attempt: number;
  /** When the next attempt starts (epoch ms), while `reconnecting`. */
  readonly retryAt?: number;
  /** Why the link went down, for the banner. */
  readonly reason?: string;
  /** When an open link was lost (epoch ms), kept through the reconnect attempts. */
  readonly lostAt?: number;
  /** The last message heard before it was lost: what the pages show is as of then. */
  readonly lastHeardAt?: number;
}

/** A Bridge plus what the shell needs to show the link's health. Pages only use the Bridge half. */
export interface ClientBridge extends Bridge {
  readonly transport: 'ipc' | 'ws';
  /** The same object until the status changes (useSyncExternalStore relies on it). */
  status(): LinkStatus;
  onStatus(listener: () => void): () => void;
  /** Skip the rest of the backoff wait. */
  retryNow(): void;
}
