import { ClientMessage, type ServerMessage } from '../../app/wire';
import { validationError } from './validationError';

/** How an envelope built by RpcClient starts: `{"t":"call","id":"c12",...`. Read from an oversized message's head only. */
const ENVELOPE_HEAD = /^\s*\{\s*"t"\s*:\s*"(call|sub)"\s*,\s*"id"\s*:\s*"([^"\\]{1,64})"/;

function byteCount(n: number): string {
  return n % (1 << 20) === 0 ? `${n >> 20} MiB` : `${n} bytes`;
}

/** A client message to act on, or the reply that refuses it. */
export type Inbound = { message: ClientMessage } | { reply: ServerMessage };

/**
 * One raw message from the wire (a string, or a value an in-process wire passed as is), checked
 * against the protocol. `isLive` says whether a subscription id is in use on this connection.
 */
export function readInbound(raw: unknown, maxBytes: number, isLive: (id: string) => boolean): Inbound {
  let value = raw;
  if (typeof raw === 'string') {
    const bytes = Buffer.byteLength(raw, 'utf8');
    if (bytes > maxBytes) return { reply: oversized(raw, bytes, maxBytes, isLive) };
    try {
      value = JSON.parse(raw);
    } catch {
      return { reply: { t: 'error', error: { code: 'BAD_MESSAGE', message: 'Message is not valid JSON' } } };
    }
  }
  const parsed = ClientMessage.safeParse(value);
  if (parsed.success) return { message: parsed.data };
  const error = validationError(parsed.error, 'message').toInfo();
  error.code = 'BAD_MESSAGE';
  // Answer on the id when there is a usable one, so the caller's promise settles.
  const id = (value as { id?: unknown } | null)?.id;
  if (typeof id === 'string' && id.length > 0 && id.length <= 64) return { reply: { t: 'result', id, ok: false, error } };
  return { reply: { t: 'error', error } };
}

/** Too large to handle: answered on its id when its head names one, so the caller's promise settles. */
function oversized(raw: string, bytes: number, maxBytes: number, isLive: (id: string) => boolean): ServerMessage {
  const error = {
    code: 'BAD_MESSAGE' as const,
    message: `Message is ${bytes} bytes; the largest handled is ${byteCount(maxBytes)}. Send less in one call.`,
  };
  const head = ENVELOPE_HEAD.exec(raw.slice(0, 256));
  const id = head?.[2];
  let reply: ServerMessage = { t: 'error', error };
  if (head?.[1] === 'call' && id !== undefined) reply = { t: 'result', id, ok: false, error };
  // An id already in use names a live subscription, which this must not end.
  if (head?.[1] === 'sub' && id !== undefined && !isLive(id)) reply = { t: 'end', id, error };
  return reply;
}
