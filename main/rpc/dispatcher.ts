import { AppError, type ErrorInfo } from '../../app/errors';
import { MAX_MESSAGE_BYTES } from '../../app/wire';
import type { Refusal } from './admission';
import type { CallRateLimit } from './callRateLimit';
import { Connection } from './connection';
import type { Handlers } from './handlers';
import { userKey, type Session } from './session';
import { SubscriptionCaps, type SubscriptionLimits } from './subscriptionCaps';
import type { Wire } from './wire';

export type { Refusal } from './admission';

export interface DispatcherOptions {
  /** Turns domain errors (e.g. ioredis failures) into AppErrors; unknown errors become INTERNAL. */
  mapError?: (e: unknown) => AppError | undefined;
  /** Per-subscription queue bound and batch gap. */
  streamCapacity?: number;
  streamIntervalMs?: number;
  log?: (msg: string) => void;
  /** Calls and subscriptions per user (web build); none when absent (desktop, tests). */
  rateLimit?: CallRateLimit;
  /** Live subscriptions per connection and per user (default 64 and 256). */
  subscriptionLimits?: SubscriptionLimits;
  /** Largest client message handled, in UTF-8 bytes (default the protocol's 1 MiB). */
  maxMessageBytes?: number;
  /** A call or stream refused for the session's role: the audit log records the attempt. */
  onRefused?: (refusal: Refusal) => void;
}

/**
 * name -> validate input -> check role -> call handler -> validate output.
 * Independent of the transport: adapters hand it a Wire and a Session.
 */
export class Dispatcher {
  private readonly capacity: number;
  private readonly intervalMs: number;
  private readonly log: (msg: string) => void;
  private readonly maxMessageBytes: number;
  /** Shared by every connection attached here, so the per-user cap spans a user's tabs. */
  private readonly caps: SubscriptionCaps;

  constructor(
    private readonly handlers: Handlers,
    private readonly opts: DispatcherOptions = {},
  ) {
    this.capacity = opts.streamCapacity ?? 1000;
    this.intervalMs = opts.streamIntervalMs ?? 50;
    this.log = opts.log ?? ((m) => console.error(m));
    this.maxMessageBytes = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.caps = new SubscriptionCaps(opts.subscriptionLimits);
  }

  /** Serve one client until its wire closes; returns a detach function. */
  attach(wire: Wire, session: Session): () => void {
    const gate = { session, user: userKey(session), rateLimit: this.opts.rateLimit, onRefused: this.opts.onRefused };
    const connection = new Connection(wire, gate, {
      handlers: this.handlers,
      caps: this.caps,
      capacity: this.capacity,
      intervalMs: this.intervalMs,
      maxMessageBytes: this.maxMessageBytes,
      log: this.log,
      toInfo: (e, name) => this.toInfo(e, name),
    });
    let detached = false;
    const offMessage = wire.onMessage(connection.receive);
    const detach = () => {
      if (detached) return;
      detached = true;
      connection.close();
      offMessage();
      offClose();
    };
    const offClose = wire.onClose(detach);
    return detach;
  }

  private toInfo(e: unknown, name: string): ErrorInfo {
    if (e instanceof AppError) return e.toInfo();
    const mapped = this.opts.mapError?.(e);
    if (mapped) return mapped.toInfo();
    this.log(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return { code: 'INTERNAL', message: `${name} failed unexpectedly; see the server log` };
  }
}
