import type { Socket } from 'node:net';
import type { ReplyCut, ReplyNode } from '../../../../app/schemas/console';
import type { ReplyFiles } from './replyFiles';

export interface ReadReplyOptions {
  /** The download file is written as `redis-cli --raw` would print the reply. */
  raw: boolean;
  files: ReplyFiles;
  /** Who may download the file (userKey of the session). */
  owner: string;
  /** Aborting rejects with CANCELLED; the caller then destroys the socket (the reply is unread). */
  signal?: AbortSignal;
}

export interface ReadReply {
  /** Bounded to REPLY_DISPLAY_BYTES / REPLY_DISPLAY_ELEMENTS / REPLY_STRING_BYTES. */
  reply: ReplyNode;
  /** Present when the bound cut the reply: the whole is in a download file. */
  cut?: ReplyCut;
  /** Bytes of RESP read for this reply. */
  bytes: number;
}

/**
 * Read exactly one top-level reply (RESP2 or RESP3) from a socket that has just been
 * written one command, streaming: a reply of any size is parsed as it arrives, kept in
 * memory only up to the display bound, and (once the bound is passed) written whole, as
 * text, to a download file. RESP3 push frames that arrive before it are skipped.
 * Rejects on socket close/error (DISCONNECTED) and on abort (CANCELLED).
 */
export function readReply(socket: Socket, opts: ReadReplyOptions): Promise<ReadReply> {
  void socket;
  void opts;
  throw new Error('readReply: not built yet');
}
