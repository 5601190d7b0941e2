import type { z } from 'zod';
import { contract, isName } from '../../app/contract';
import { roleAllows } from '../../app/define';
import { asCaller } from '../core/jobs/jobOwner';
import { AppError, type ErrorInfo } from '../../app/errors';
import { ClientMessage, MAX_MESSAGE_BYTES, type ServerMessage } from '../../app/wire';
import type { CallContext, Handlers, StreamSink } from './handlers';
import { userKey, type Session } from './session';
import type { CallRateLimit } from './callRateLimit';
import { StreamQueue } from './streamQueue';
import { SubscriptionCaps, type SubscriptionLimits } from './subscriptionCaps';
import type { Wire } from './wire';

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

export interface Refusal {
  session: Session;
  /** The contract name asked for. */
  name: string;
  /** As sent (not validated: the role check comes first). */
  input: unknown;
  message: string;
}

type AnyCall = (args: unknown, ctx: CallContext) => unknown;
type AnyStream = (args: unknown, sink: StreamSink<unknown>, ctx: CallContext) => (() => void) | Promise<() => void>;

interface Subscription {
  queue: StreamQueue<unknown>;
  abort: AbortController;
  cleanup: (() => void) | null;
  ended: boolean;
}

/** How an envelope built by RpcClient starts: `{"t":"call","id":"c12",...`. Read from an oversized message's head only. */
const ENVELOPE_HEAD = /^\s*\{\s*"t"\s*:\s*"(call|sub)"\s*,\s*"id"\s*:\s*"([^"\\]{1,64})"/;

function byteCount(n: number): string {
  return n % (1 << 20) === 0 ? `${n >> 20} MiB` : `${n} bytes`;
}

/** The first schema issue, as "field: message" with the field path named. */
export function validationError(err: z.ZodError, prefix = ''): AppError {
  const issue = err.issues[0];
  const path = issue ? [prefix, ...issue.path.map(String)].filter((s) => s !== '').join('.') : prefix;
  const msg = issue?.message ?? 'invalid input';
  const text = path !== '' && !msg.startsWith(path) ? `${path}: ${msg}` : msg;
  return new AppError('VALIDATION', text, path === '' ? undefined : path);
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
    const subs = new Map<string, Subscription>();
    const inflight = new Set<AbortController>();
    const user = userKey(session);
    let closed = false;

    const send: Wire['send'] = (m) => {
      if (!closed) wire.send(m);
    };
    const fail = (id: string, e: unknown, name: string) => {
      send({ t: 'result', id, ok: false, error: this.toInfo(e, name) });
    };

    const endSub = (id: string, error?: ErrorInfo) => {
      const sub = subs.get(id);
      if (!sub || sub.ended) return;
      sub.ended = true;
      subs.delete(id);
      this.caps.release(user);
      sub.abort.abort();
      sub.queue.drain();
      sub.queue.close();
      try {
        sub.cleanup?.();
      } catch (e) {
        this.log(`stream cleanup failed: ${String(e)}`);
      }
      send(error ? { t: 'end', id, error } : { t: 'end', id });
    };

    const check = (name: string, kind: 'call' | 'stream', input: unknown) => {
      if (!isName(name) || contract[name].kind !== kind) {
        throw new AppError('UNKNOWN_CALL', `Unknown ${kind} "${name}"`);
      }
      const def = contract[name];
      if (session.role === null) throw new AppError('UNAUTHENTICATED', 'Sign in first');
      // Before the role check: refused attempts are written to the audit log, and must not flood it.
      if (this.opts.rateLimit !== undefined && !this.opts.rateLimit.take(user)) {
        throw new AppError('RATE_LIMITED', 'Too many requests from this user; wait a moment and try again.');
      }
      if (!roleAllows(session.role, def.role)) {
        // Read by a person on a page: the role, not the contract's call name (the audit entry keeps that).
        const refused = new AppError('FORBIDDEN', `Only ${def.role} users can do this; you are signed in as ${session.role}.`);
        this.opts.onRefused?.({ session, name, input, message: refused.message });
        throw refused;
      }
      const parsed = def.input.safeParse(input);
      if (!parsed.success) throw validationError(parsed.error);
      return { def, args: parsed.data as unknown };
    };

    const onCall = async (id: string, name: string, input: unknown) => {
      const abort = new AbortController();
      inflight.add(abort);
      try {
        const { def, args } = check(name, 'call', input);
        if (def.kind !== 'call') return;
        const handler = this.handlers[name as keyof Handlers] as unknown as AnyCall;
        // Any job the handler starts is this caller's, for the role this call needed (jobOwner.ts).
        const out = await asCaller({ user, role: def.role }, () => handler(args, { session, signal: abort.signal }));
        // Parsing strips unknown keys, so a handler can never leak a field the contract doesn't name.
        const checked = def.output.safeParse(out);
        if (!checked.success) {
          this.log(`${name}: output failed its schema: ${checked.error.message}`);
          throw new AppError('INTERNAL', `${name} produced an invalid result; see the server log`);
        }
        send({ t: 'result', id, ok: true, output: checked.data });
      } catch (e) {
        fail(id, e, name);
      } finally {
        inflight.delete(abort);
      }
    };

    const onSub = async (id: string, name: string, input: unknown) => {
      if (subs.has(id)) {
        send({ t: 'end', id, error: { code: 'CONFLICT', message: `Subscription id ${id} is already in use` } });
        return;
      }
      let checkedDef;
      let args: unknown;
      try {
        ({ def: checkedDef, args } = check(name, 'stream', input));
        // Taken here and released by endSub, whichever way the subscription ends.
        if (checkedDef.kind === 'stream') this.caps.take(user, subs.size);
      } catch (e) {
        send({ t: 'end', id, error: this.toInfo(e, name) });
        return;
      }
      if (checkedDef.kind !== 'stream') return;
      const eventSchema = checkedDef.event;
      const abort = new AbortController();
      const queue = new StreamQueue<unknown>({
        capacity: this.capacity,
        intervalMs: this.intervalMs,
        flush: (events, dropped) => {
          if (wire.congested?.()) return false;
          const out: unknown[] = [];
          // Validated at delivery, not at push: dropped events cost nothing.
          for (const ev of events) {
            const r = eventSchema.safeParse(ev);
            if (r.success) out.push(r.data);
            else this.log(`${name}: event failed its schema: ${r.error.message}`);
          }
          send({ t: 'batch', id, events: out, dropped });
          return true;
        },
      });
      const sub: Subscription = { queue, abort, cleanup: null, ended: false };
      subs.set(id, sub);
      const sink: StreamSink<unknown> = {
        push: (ev) => queue.push(ev),
        end: (err) => endSub(id, err?.toInfo()),
        signal: abort.signal,
        get backlog() {
          return queue.queued;
        },
      };
      try {
        const handler = this.handlers[name as keyof Handlers] as unknown as AnyStream;
        const cleanup = await handler(args, sink, { session, signal: abort.signal });
        if (sub.ended) cleanup();
        else sub.cleanup = cleanup;
      } catch (e) {
        endSub(id, this.toInfo(e, name));
      }
    };

    /** Too large to handle: answered on its id when its head names one, so the caller's promise settles. */
    const refuseOversized = (raw: string, bytes: number) => {
      const error = {
        code: 'BAD_MESSAGE' as const,
        message: `Message is ${bytes} bytes; the largest handled is ${byteCount(this.maxMessageBytes)}. Send less in one call.`,
      };
      const head = ENVELOPE_HEAD.exec(raw.slice(0, 256));
      const id = head?.[2];
      let reply: ServerMessage = { t: 'error', error };
      if (head?.[1] === 'call' && id !== undefined) reply = { t: 'result', id, ok: false, error };
      // An id already in use names a live subscription, which this must not end.
      if (head?.[1] === 'sub' && id !== undefined && !subs.has(id)) reply = { t: 'end', id, error };
      send(reply);
    };

    const onRaw = (raw: unknown) => {
      let value = raw;
      if (typeof raw === 'string') {
        const bytes = Buffer.byteLength(raw, 'utf8');
        if (bytes > this.maxMessageBytes) {
          refuseOversized(raw, bytes);
          return;
        }
        try {
          value = JSON.parse(raw);
        } catch {
          send({ t: 'error', error: { code: 'BAD_MESSAGE', message: 'Message is not valid JSON' } });
          return;
        }
      }
      const parsed = ClientMessage.safeParse(value);
      if (!parsed.success) {
        const error = validationError(parsed.error, 'message').toInfo();
        error.code = 'BAD_MESSAGE';
        // Answer on the id when there is a usable one, so the caller's promise settles.
        const id = (value as { id?: unknown } | null)?.id;
        if (typeof id === 'string' && id.length > 0 && id.length <= 64) send({ t: 'result', id, ok: false, error });
        else send({ t: 'error', error });
        return;
      }
      const m = parsed.data;
      if (m.t === 'call') void onCall(m.id, m.name, m.input);
      else if (m.t === 'sub') void onSub(m.id, m.name, m.input);
      else endSub(m.id);
    };

    const offMessage = wire.onMessage(onRaw);
    const detach = () => {
      if (closed) return;
      // Closed first: ending the subscriptions must not write to a dead transport.
      closed = true;
      for (const id of [...subs.keys()]) endSub(id);
      for (const a of inflight) a.abort();
      inflight.clear();
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
