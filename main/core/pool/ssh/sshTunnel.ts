import type { Server, Socket } from 'node:net';
import type { SshChain } from './sshChain';
import { HostKeyError } from './hostKeyError';
import { listenLoopbackNow } from './loopbackServer';
import type { SshRoute, TunnelState } from './types';

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;

/**
 * One SSH chain and the loopback ports forwarded through it. The chain connects on first use, and after it
 * dies it is rebuilt with a bounded backoff; a connection that arrives while it is down waits for the attempt
 * in flight and is closed if that attempt fails (state() then names the cause).
 */
export class SshTunnel {
  private chain: SshChain | undefined;
  private attempt: Promise<SshChain> | undefined;
  private current: TunnelState = { state: 'connecting' };
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private closed = false;
  private readonly forwards = new Map<string, { server: Server; port: number }>();
  private readonly sockets = new Set<Socket>();

  constructor(private readonly route: SshRoute) {}

  state(): TunnelState {
    return { ...this.current };
  }

  forward(address: string): { host: string; port: number } {
    if (this.closed) throw new Error('This SSH tunnel was released');
    const known = this.forwards.get(address);
    if (known !== undefined) return { host: '127.0.0.1', port: known.port };
    const { host, port: targetPort } = splitAddress(address);
    const bound = listenLoopbackNow((socket) => this.pipe(socket, host, targetPort));
    this.forwards.set(address, bound);
    return { host: '127.0.0.1', port: bound.port };
  }

  async ready(): Promise<void> {
    await this.up();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.chain?.close();
    this.chain = undefined;
    for (const s of this.sockets) s.destroy();
    const servers = [...this.forwards.values()].map((f) => f.server);
    this.forwards.clear();
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }

  private up(): Promise<SshChain> {
    if (this.closed) return Promise.reject(new Error('This SSH tunnel was released'));
    if (this.chain !== undefined) return Promise.resolve(this.chain);
    this.attempt ??= this.connect();
    return this.attempt;
  }

  private async connect(): Promise<SshChain> {
    clearTimeout(this.retryTimer);
    this.current = { state: 'connecting', ...(this.current.error === undefined ? {} : { error: this.current.error }) };
    try {
      // ssh2 and its crypto (~20 CommonJS modules, ~15 ms) load with the first tunnel, not with
      // every process that could open one: a cron job's `cacheboard load` without --ssh pays nothing.
      const { connectChain } = await import('./sshChain');
      const chain = await connectChain(this.route);
      if (this.closed) {
        chain.close();
        throw new Error('This SSH tunnel was released');
      }
      this.chain = chain;
      this.retryMs = FIRST_RETRY_MS;
      this.current = { state: 'up' };
      chain.onClose((err) => this.lost(chain, err));
      return chain;
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      this.current = { state: 'down', error: error.message };
      this.scheduleRetry(error);
      throw error;
    } finally {
      this.attempt = undefined;
    }
  }

  private lost(chain: SshChain, err: Error | undefined): void {
    if (this.chain !== chain) return;
    this.chain = undefined;
    if (this.closed) return;
    this.current = { state: 'down', error: `SSH connection lost${err === undefined ? '' : `: ${err.message}`}` };
    this.scheduleRetry(err);
  }

  /** A refused host key or failed login will not fix itself: those are retried on the next use only. */
  private scheduleRetry(err: Error | undefined): void {
    if (this.closed || err instanceof HostKeyError || (err?.message.startsWith('SSH authentication failed') ?? false)) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.up().catch(() => undefined);
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private pipe(socket: Socket, host: string, port: number): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.pause();
    this.up()
      .then((chain) => chain.forwardOut(host, port))
      .then((stream) => {
        if (socket.destroyed) {
          stream.destroy();
          return;
        }
        stream.on('error', () => socket.destroy());
        stream.on('close', () => socket.destroy());
        socket.on('close', () => stream.destroy());
        socket.pipe(stream).pipe(socket);
        socket.resume();
      })
      .catch(() => socket.destroy());
  }
}

function splitAddress(address: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  const port = Number(m?.[2]);
  if (!m || !Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`Not a host:port address: "${address}"`);
  return { host: m[1] ?? '', port };
}
