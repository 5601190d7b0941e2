import type { Redis } from 'ioredis';

/** A dedicated ioredis connection from the pool, owned by the load until release(). */
export interface ControlLease {
  redis: Redis;
  release(): Promise<void>;
}

/** Cleanup commands against a server that may be hung (SIGSTOP, a long fork) must not hold the report forever. */
export const CLEANUP_TIMEOUT_MS = 10_000;

/**
 * One server's control connection, and fresh ones for cleanup once it is
 * blocked (a WAIT left running on cancel) or dead. Every lease taken is
 * released by releaseAll.
 */
export class ControlLink {
  private readonly leases: ControlLease[] = [];
  private control: Redis | undefined;
  /** The control connection is blocked or dead: cleanup needs another. */
  private unusable = false;

  /** `lease`: a fresh dedicated connection each call. */
  constructor(private readonly lease: () => Promise<ControlLease>) {}

  async open(): Promise<Redis> {
    const redis = await this.fresh();
    this.control = redis;
    return redis;
  }

  /** WAIT still blocks the control connection (left running on cancel): cleanup uses a fresh one. */
  blocked(): void {
    this.unusable = true;
  }

  /** The control connection, while it can take a command. */
  get ready(): Redis | undefined {
    const control = this.control;
    return control !== undefined && !this.unusable && control.status === 'ready' ? control : undefined;
  }

  async fresh(): Promise<Redis> {
    const lease = await this.lease();
    this.leases.push(lease);
    return lease.redis;
  }

  /** Run fn on the control connection, or on a fresh one when it is gone or blocked. */
  async onCleanupConnection<T>(fn: (redis: Redis) => Promise<T>): Promise<T> {
    const control = this.ready;
    if (control !== undefined) {
      try {
        return await withTimeout(fn(control), CLEANUP_TIMEOUT_MS, 'cleanup');
      } catch (err) {
        if (isReplyError(err)) throw err;
        this.unusable = true;
      }
    }
    return withTimeout(
      this.fresh().then((redis) => fn(redis)),
      CLEANUP_TIMEOUT_MS,
      'cleanup',
    );
  }

  /** For restoring a setting: the control connection while usable, then a fresh one. */
  cleanupConnections(): (() => Promise<Redis>)[] {
    const connections: (() => Promise<Redis>)[] = [];
    const control = this.ready;
    if (control !== undefined) connections.push(() => Promise.resolve(control));
    connections.push(() => this.fresh());
    return connections;
  }

  async releaseAll(): Promise<void> {
    await Promise.all(this.leases.splice(0).map((l) => l.release().catch(() => undefined)));
  }
}

function isReplyError(err: unknown): boolean {
  return err instanceof Error && err.name === 'ReplyError';
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the server within ${ms / 1000} s while ${what}`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
