import * as z from 'zod';
import type { ErrorInfo } from './errors';

/**
 * Envelopes exchanged over any transport (Electron IPC, WebSocket, in-memory).
 * Client messages are validated on arrival because the web side faces untrusted clients.
 */
const Id = z.string().min(1).max(64);

/**
 * The protocol's largest client message, in UTF-8 bytes. A larger one is not
 * handled: it gets an error reply (on its id when the message starts with
 * one) and the connection stays up. Transports may cut off far larger ones.
 */
export const MAX_MESSAGE_BYTES = 1 << 20;
const CallName = z.string().min(1).max(128);

export const ClientMessage = z.discriminatedUnion('t', [
  z.object({ t: z.literal('call'), id: Id, name: CallName, input: z.unknown() }),
  z.object({ t: z.literal('sub'), id: Id, name: CallName, input: z.unknown() }),
  z.object({ t: z.literal('unsub'), id: Id }),
]);
export type ClientMessage = z.output<typeof ClientMessage>;

export type ServerMessage =
  | { t: 'result'; id: string; ok: true; output: unknown }
  | { t: 'result'; id: string; ok: false; error: ErrorInfo }
  /** A batch of stream events; `dropped` is the running total dropped for this subscription. */
  | { t: 'batch'; id: string; events: unknown[]; dropped: number }
  | { t: 'end'; id: string; error?: ErrorInfo }
  /** A message that could not be tied to an id (malformed envelope). */
  | { t: 'error'; error: ErrorInfo };
