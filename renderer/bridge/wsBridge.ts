import type { StreamHandlers } from '../../app/bridge';
import type { CallInput, CallName, CallOutput, StreamEvent, StreamInput, StreamName } from '../../app/contract';
import { AppError } from '../../app/errors';
import { RpcClient } from '../../app/rpcClient';
import { MAX_MESSAGE_BYTES, type ClientMessage, type ServerMessage } from '../../app/wire';
import type { ClientBridge, LinkStatus } from './link';

/** The part of the DOM WebSocket this bridge uses; tests pass a fake. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface WsBridgeOptions {
  url: string;
  createSocket?: (url: string) => SocketLike;
  /** Messages held while the socket is not open; beyond it calls fail at once. */
  maxQueued?: number;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** 0..1, for jitter; injectable so tests are deterministic. */
  random?: () => number;
  /** The server closed the socket because the session ended (close code 4401). */
  onSessionEnded?: () => void;
}

const SOCKET_OPEN = 1;
/** The server's close code for "the session ended" (signed out or expired). */
export const SESSION_CLOSE_CODE = 4401;
const SERVER_TYPES = new Set(['result', 'batch', 'end', 'error']);

export function wsUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/api/ws`;
}

/**
 * A message the server would refuse for its size fails here instead, with the
 * same code, before it costs the upload (and past 16 MiB, the socket).
 */
function refuseOversized(text: string): void {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only long texts need counting.
  if (text.length * 3 <= MAX_MESSAGE_BYTES) return;
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_MESSAGE_BYTES) {
    throw new AppError(
      'BAD_MESSAGE',
      `This request is ${bytes} bytes; the server handles at most ${MAX_MESSAGE_BYTES >> 20} MiB in one message. Send less at once.`,
    );
  }
}

function parseServerMessage(data: unknown): ServerMessage | undefined {
  if (typeof data !== 'string') return undefined;
  let m: unknown;
  try {
    m = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof m !== 'object' || m === null) return undefined;
  const t = (m as { t?: unknown }).t;
  // The server is ours and speaks the wire protocol; a shape check keeps a proxy's junk out.
  return typeof t === 'string' && SERVER_TYPES.has(t) ? (m as ServerMessage) : undefined;
}

/**
 * The web build's Bridge: RpcClient over one WebSocket to `/api/ws`.
 * When the socket closes, every pending call fails with DISCONNECTED and every
 * stream ends (RpcClient.disconnected); the bridge then reconnects with
 * exponential backoff and jitter. Messages sent while the socket is not open
 * wait in a bounded outbox and leave on the next open.
 */
export class WsBridge implements ClientBridge {
  readonly transport = 'ws' as const;
  private readonly rpc: RpcClient;
  private readonly createSocket: (url: string) => SocketLike;
  private readonly maxQueued: number;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly random: () => number;
  private socket: SocketLike | undefined;
  private outbox: ClientMessage[] = [];
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private current: LinkStatus = { state: 'connecting', epoch: 0, attempt: 0 };
  /** When the last message arrived (or the link opened): the "as of" time once the link is lost. */
  private lastHeard: number | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly opts: WsBridgeOptions) {
    this.createSocket = opts.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    this.maxQueued = opts.maxQueued ?? 256;
    this.initialBackoffMs = opts.initialBackoffMs ?? 250;
    this.maxBackoffMs = opts.maxBackoffMs ?? 5000;
    this.random = opts.random ?? Math.random;
    this.rpc = new RpcClient((m) => this.send(m));
    this.connect();
  }

  invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> {
    return this.rpc.invoke(name, input);
  }

  subscribe<N extends StreamName>(name: N, input: StreamInput<N>, handlers: StreamHandlers<StreamEvent<N>>): () => void {
    return this.rpc.subscribe(name, input, handlers);
  }

  status(): LinkStatus {
    return this.current;
  }

  onStatus(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  retryNow(): void {
    if (this.disposed || this.socket !== undefined) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.connect();
  }

  /** Close for good (tests, hot reload): pending calls fail, no reconnect. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.retryTimer);
    const s = this.socket;
    this.socket = undefined;
    this.outbox = [];
    s?.close(1000, 'bridge disposed');
    this.rpc.disconnected('The connection to the server was closed');
  }

  private setStatus(next: LinkStatus): void {
    this.current = next;
    for (const l of [...this.listeners]) l();
  }

  private send(m: ClientMessage): void {
    if (this.disposed) throw new Error('the connection to the server is closed');
    const text = JSON.stringify(m);
    refuseOversized(text);
    const s = this.socket;
    if (s !== undefined && s.readyState === SOCKET_OPEN) {
      s.send(text);
      return;
    }
    if (m.t === 'unsub') {
      // Cancel a subscription that never left; one already sent died with its socket.
      this.outbox = this.outbox.filter((q) => !(q.t === 'sub' && q.id === m.id));
      return;
    }
    if (this.outbox.length >= this.maxQueued) {
      throw new Error('too many requests waiting for the server connection');
    }
    this.outbox.push(m);
  }

  private connect(): void {
    const prev = this.current;
    if (prev.state !== 'connecting' && prev.state !== 'reconnecting') return;
    this.setStatus({ ...prev, retryAt: undefined });
    let s: SocketLike;
    try {
      s = this.createSocket(this.opts.url);
    } catch (e) {
      this.lost(e instanceof Error ? e.message : String(e));
      return;
    }
    this.socket = s;
    s.onopen = () => {
      if (this.socket !== s) return;
      const queued = this.outbox;
      this.outbox = [];
      for (const m of queued) s.send(JSON.stringify(m));
      this.lastHeard = Date.now();
      this.setStatus({ state: 'open', epoch: this.current.epoch + 1, attempt: 0 });
    };
    s.onmessage = (ev) => {
      if (this.socket !== s) return;
      this.lastHeard = Date.now();
      const m = parseServerMessage(ev.data);
      if (m !== undefined) this.rpc.receive(m);
    };
    s.onclose = (ev) => {
      if (this.socket !== s) return;
      this.socket = undefined;
      if (ev.code === SESSION_CLOSE_CODE) this.opts.onSessionEnded?.();
      // 1006 (no close frame) is the usual case and says nothing a person can use.
      this.lost(ev.reason !== '' ? ev.reason : undefined);
    };
    // A failed socket always follows 'error' with 'close'; the close handler does the work.
    s.onerror = () => {};
  }

  private lost(reason: string | undefined): void {
    const wasOpen = this.current.state === 'open';
    // Whatever waited in the outbox belongs to the calls failed just below.
    this.outbox = [];
    const what = wasOpen ? 'Lost the connection to the Cacheboard server' : 'Cannot reach the Cacheboard server';
    this.rpc.disconnected(reason === undefined ? what : `${what}: ${reason}`);
    if (this.disposed) return;
    const attempt = this.current.attempt + 1;
    const ceiling = Math.min(this.maxBackoffMs, this.initialBackoffMs * 2 ** (attempt - 1));
    const delay = Math.round(ceiling * (0.5 + this.random() * 0.5));
    const prev = this.current;
    const lostAt = wasOpen ? Date.now() : prev.lostAt;
    const lastHeardAt = wasOpen ? this.lastHeard : prev.lastHeardAt;
    this.setStatus({
      state: 'reconnecting',
      epoch: prev.epoch,
      attempt,
      retryAt: Date.now() + delay,
      reason,
      ...(lostAt === undefined ? {} : { lostAt }),
      ...(lastHeardAt === undefined ? {} : { lastHeardAt }),
    });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, delay);
  }
}
