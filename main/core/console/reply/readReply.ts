import type { Socket } from 'node:net';
import { AppError } from '../../../../app/errors';
import type { AggregateType, StringType } from '../../../../app/replyText';
import type { ReplyCut, ReplyNode } from '../../../../app/schemas/console';
import { ReplyProtocolError } from '../../resp/replyProtocolError';
import type { ReplyFiles, ReplyFileWriter } from './replyFiles';
import { ReplyTextSink } from './replyTextSink';
import type { LineType, RespSink } from './respSink';
import { RespStreamParser } from './respStreamParser';
import { SecretMask } from './secretMask';
import { ReplyTreeBuilder } from './replyTree';

/**
 * RESP of a reply kept until it is known to need a download file. A reply within the display
 * bounds is less than a third of this (2 MiB of data, 20,000 headers), so only a reply that
 * is cut, or one hiding megabytes in attributes, passes it.
 */
const MAX_KEPT_BYTES = 8 * 1024 * 1024;

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
  /** A RESP3 attribute sent before the reply (only DEBUG PROTOCOL attrib does): metadata, not in `reply` nor the file. */
  attribute?: ReplyNode;
}

/**
 * Read exactly one top-level reply (RESP2 or RESP3) from a socket that has just been
 * written one command, streaming: a reply of any size is parsed as it arrives, kept in
 * memory only up to the display bound, and (once the bound is passed) written whole, as
 * text, to a download file. RESP3 push frames that arrive before it are skipped.
 * Rejects on socket close/error (DISCONNECTED) and on abort (CANCELLED).
 *
 * Call it right after the write, in the same tick. It reads with a 'data' listener and
 * resumes the socket; when it settles its listeners are gone and the socket is left paused,
 * with any bytes that came after the reply put back (unshift) for the next read. On bytes that
 * are not RESP it rejects with REDIS: the caller must drop the connection, as after a reject
 * of any kind (the rest of the reply is still on the way).
 *
 * Until the bound is passed the reply's RESP is kept (a few MB at most: MAX_KEPT_BYTES); when
 * it is, the kept bytes are parsed again into the file, which from then on is written as
 * the bytes arrive. The socket is paused while the disk is behind.
 */
export function readReply(socket: Socket, opts: ReadReplyOptions): Promise<ReadReply> {
  return new Promise((resolve, reject) => {
    const tree = new ReplyTreeBuilder();
    const tee = new Tee(tree);
    // Every consumer (the tree, the download) sees the reply with secret parameters' values masked.
    const pushes = new PushSkipper(new SecretMask(tee));
    const parser = new RespStreamParser(pushes);
    let kept: Buffer[] = [];
    let keptBytes = 0;
    let bytes = 0;
    let file: ReplyFileWriter | undefined;
    let text: ReplyTextSink | undefined;
    let settled = false;

    const cleanup = (): void => {
      settled = true;
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (err: unknown): void => {
      if (settled) return;
      cleanup();
      file?.discard();
      reject(err);
    };
    const onClose = (): void => fail(new AppError('DISCONNECTED', 'The connection closed before the whole reply came.'));
    const onError = (err: Error): void => fail(new AppError('DISCONNECTED', `The connection failed while reading the reply: ${err.message}`));
    const onAbort = (): void => fail(new AppError('CANCELLED', 'The command was cancelled before its reply came.'));

    /** The bound was passed: the file gets everything so far, then every event as it comes. */
    const startFile = (): void => {
      const writer = opts.files.create(opts.owner);
      file = writer;
      text = new ReplyTextSink(opts.raw ? 'raw' : 'formatted', (chunk) => writer.write(chunk));
      const replay = new RespStreamParser(new SecretMask(text));
      for (const part of kept) {
        for (let at = 0; at < part.length; replay.complete = false) at = replay.feed(part, at);
      }
      kept = [];
      keptBytes = 0;
      tee.text = text;
    };
    /** The tree was cut; or (a safety net: what a nested attribute holds is not shown) too much RESP is kept. */
    const needsFile = (): boolean => file === undefined && (tree.cut || keptBytes > MAX_KEPT_BYTES);

    const finish = async (rest: Buffer): Promise<void> => {
      cleanup();
      socket.pause();
      if (rest.length > 0) socket.unshift(rest);
      if (needsFile()) startFile();
      const reply = tree.root ?? { t: 'null' };
      const result: ReadReply = { reply, bytes };
      if (tree.attribute !== undefined) result.attribute = tree.attribute;
      if (file !== undefined && text !== undefined) {
        text.flush();
        const fileBytes = await file.finish();
        result.cut = { totalBytes: tree.totalBytes, totalElements: tree.totalElements, downloadId: file.id, fileBytes };
      }
      resolve(result);
    };

    const consume = (chunk: Buffer): void => {
      let pos = 0;
      while (pos < chunk.length) {
        const from = pos;
        pos = parser.feed(chunk, pos);
        bytes += pos - from;
        if (file === undefined) {
          kept.push(chunk.subarray(from, pos));
          keptBytes += pos - from;
        }
        if (!parser.complete) break;
        parser.complete = false;
        if (pushes.skipped) {
          // A push frame (client tracking, pub/sub) before the reply: not ours.
          pushes.skipped = false;
          kept = [];
          keptBytes = 0;
          bytes = 0;
          continue;
        }
        finish(chunk.subarray(pos)).catch(reject);
        return;
      }
      if (needsFile()) startFile();
      if (file?.needsDrain === true) {
        socket.pause();
        void file.drained().then(() => {
          if (!settled) socket.resume();
        });
      }
    };

    function onData(chunk: Buffer): void {
      try {
        consume(chunk);
      } catch (err) {
        if (!(err instanceof ReplyProtocolError)) return fail(err);
        fail(new AppError('REDIS', `The server's reply could not be read (${err.message}); the connection is dropped.`));
      }
    }

    if (opts.signal?.aborted === true) return onAbort();
    if (socket.destroyed) return onClose();
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('error', onError);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    socket.resume();
  });
}

/** Events to the tree, and to the download's text once there is one. */
class Tee implements RespSink {
  text: RespSink | undefined;
  constructor(private readonly tree: RespSink) {}
  line(t: LineType, buf: Buffer, start: number, end: number): void {
    this.tree.line(t, buf, start, end);
    this.text?.line(t, buf, start, end);
  }
  stringStart(t: StringType, bytes: number, format: string): void {
    this.tree.stringStart(t, bytes, format);
    this.text?.stringStart(t, bytes, format);
  }
  stringPiece(buf: Buffer, start: number, end: number): void {
    this.tree.stringPiece(buf, start, end);
    this.text?.stringPiece(buf, start, end);
  }
  stringEnd(): void {
    this.tree.stringEnd();
    this.text?.stringEnd();
  }
  open(t: AggregateType, count: number): void {
    this.tree.open(t, count);
    this.text?.open(t, count);
  }
  close(): void {
    this.tree.close();
    this.text?.close();
  }
}

/** Top-level push frames are dropped; `skipped` is set when one has ended. */
class PushSkipper implements RespSink {
  skipped = false;
  private depth = 0;
  private skipping = false;
  constructor(private readonly next: RespSink) {}
  line(t: LineType, buf: Buffer, start: number, end: number): void {
    if (!this.skipping) this.next.line(t, buf, start, end);
  }
  stringStart(t: StringType, bytes: number, format: string): void {
    if (!this.skipping) this.next.stringStart(t, bytes, format);
  }
  stringPiece(buf: Buffer, start: number, end: number): void {
    if (!this.skipping) this.next.stringPiece(buf, start, end);
  }
  stringEnd(): void {
    if (!this.skipping) this.next.stringEnd();
  }
  open(t: AggregateType, count: number): void {
    if (this.depth === 0 && t === 'push') this.skipping = true;
    this.depth++;
    if (!this.skipping) this.next.open(t, count);
  }
  close(): void {
    this.depth--;
    if (!this.skipping) {
      this.next.close();
    } else if (this.depth === 0) {
      this.skipping = false;
      this.skipped = true;
    }
  }
}
