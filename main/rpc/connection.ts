import type { ErrorInfo } from '../../app/errors';
import { AppError } from '../../app/errors';
import { asCaller } from '../core/jobs/jobOwner';
import { admit, type Gate } from './admission';
import { deliveryQueue, type DeliveryOptions } from './delivery';
import type { CallContext, Handlers, StreamSink } from './handlers';
import { readInbound } from './inbound';
import type { StreamQueue } from './streamQueue';
import type { SubscriptionCaps } from './subscriptionCaps';
import type { Wire } from './wire';

type AnyCall = (args: unknown, ctx: CallContext) => unknown;
type AnyStream = (args: unknown, sink: StreamSink<unknown>, ctx: CallContext) => (() => void) | Promise<() => void>;

interface Subscription {
  queue: StreamQueue<unknown>;
  abort: AbortController;
  cleanup: (() => void) | null;
  ended: boolean;
}

/** What a connection shares with the Dispatcher that attached it. */
export interface ConnectionDeps extends DeliveryOptions {
  handlers: Handlers;
  /** Shared by every connection of one dispatcher, so the per-user cap spans a user's tabs. */
  caps: SubscriptionCaps;
  maxMessageBytes: number;
  toInfo: (e: unknown, name: string) => ErrorInfo;
}

/** One client's calls and subscriptions, from its first message until its wire closes. */
export class Connection {
  private readonly subs = new Map<string, Subscription>();
  private readonly inflight = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly wire: Wire,
    private readonly gate: Gate,
    private readonly deps: ConnectionDeps,
  ) {}

  readonly send: Wire['send'] = (m) => {
    if (!this.closed) this.wire.send(m);
  };

  /** One raw message from the wire. */
  readonly receive = (raw: unknown): void => {
    const inbound = readInbound(raw, this.deps.maxMessageBytes, (id) => this.subs.has(id));
    if ('reply' in inbound) {
      this.send(inbound.reply);
      return;
    }
    const m = inbound.message;
    if (m.t === 'call') void this.call(m.id, m.name, m.input);
    else if (m.t === 'sub') void this.subscribe(m.id, m.name, m.input);
    else this.endSub(m.id);
  };

  /** Stops answering: ends every subscription and aborts every call in flight. */
  close(): void {
    // Closed first: ending the subscriptions must not write to a dead transport.
    this.closed = true;
    for (const id of [...this.subs.keys()]) this.endSub(id);
    for (const a of this.inflight) a.abort();
    this.inflight.clear();
  }

  private async call(id: string, name: string, input: unknown): Promise<void> {
    const abort = new AbortController();
    this.inflight.add(abort);
    try {
      const { def, args } = admit(this.gate, name, 'call', input);
      if (def.kind !== 'call') return;
      const handler = this.deps.handlers[name as keyof Handlers] as unknown as AnyCall;
      const { session, user } = this.gate;
      // Any job the handler starts is this caller's, for the role this call needed (jobOwner.ts).
      const out = await asCaller({ user, role: def.role }, () => handler(args, { session, signal: abort.signal }));
      // Parsing strips unknown keys, so a handler can never leak a field the contract doesn't name.
      const checked = def.output.safeParse(out);
      if (!checked.success) {
        this.deps.log(`${name}: output failed its schema: ${checked.error.message}`);
        throw new AppError('INTERNAL', `${name} produced an invalid result; see the server log`);
      }
      this.send({ t: 'result', id, ok: true, output: checked.data });
    } catch (e) {
      this.send({ t: 'result', id, ok: false, error: this.deps.toInfo(e, name) });
    } finally {
      this.inflight.delete(abort);
    }
  }

  private async subscribe(id: string, name: string, input: unknown): Promise<void> {
    if (this.subs.has(id)) {
      this.send({ t: 'end', id, error: { code: 'CONFLICT', message: `Subscription id ${id} is already in use` } });
      return;
    }
    let checkedDef;
    let args: unknown;
    try {
      ({ def: checkedDef, args } = admit(this.gate, name, 'stream', input));
      // Taken here and released by endSub, whichever way the subscription ends.
      if (checkedDef.kind === 'stream') this.deps.caps.take(this.gate.user, this.subs.size);
    } catch (e) {
      this.send({ t: 'end', id, error: this.deps.toInfo(e, name) });
      return;
    }
    if (checkedDef.kind !== 'stream') return;
    const abort = new AbortController();
    const queue = deliveryQueue(this.wire, this.send, id, name, checkedDef.event, this.deps);
    const sub: Subscription = { queue, abort, cleanup: null, ended: false };
    this.subs.set(id, sub);
    const sink: StreamSink<unknown> = {
      push: (ev) => queue.push(ev),
      end: (err) => this.endSub(id, err?.toInfo()),
      signal: abort.signal,
      get backlog() {
        return queue.queued;
      },
    };
    try {
      const handler = this.deps.handlers[name as keyof Handlers] as unknown as AnyStream;
      const cleanup = await handler(args, sink, { session: this.gate.session, signal: abort.signal });
      if (sub.ended) cleanup();
      else sub.cleanup = cleanup;
    } catch (e) {
      this.endSub(id, this.deps.toInfo(e, name));
    }
  }

  private endSub(id: string, error?: ErrorInfo): void {
    const sub = this.subs.get(id);
    if (!sub || sub.ended) return;
    sub.ended = true;
    this.subs.delete(id);
    this.deps.caps.release(this.gate.user);
    sub.abort.abort();
    sub.queue.drain();
    sub.queue.close();
    try {
      sub.cleanup?.();
    } catch (e) {
      this.deps.log(`stream cleanup failed: ${String(e)}`);
    }
    this.send(error ? { t: 'end', id, error } : { t: 'end', id });
  }
}
