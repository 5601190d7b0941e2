import type { WebSocket } from 'ws';
import type { ServerMessage } from '../../app/wire';
import type { Wire } from '../rpc/wire';

/**
 * The largest WebSocket message read at all (ws's maxPayload): a frame, or
 * fragments adding up, past it closes the socket with 1009 as soon as its
 * header says so, before it is buffered. Between the protocol's 1 MiB
 * (MAX_MESSAGE_BYTES) and this, a message is read and answered with an error,
 * and the socket stays up.
 */
export const MAX_FRAME_BYTES = 16 << 20;

/** Past this many bytes waiting in the socket, streams hold back and count drops. */
const CONGESTED_BYTES = 1 << 20;

/**
 * The most serve holds for one socket's client: bytes written and not yet taken by the peer,
 * call results included (streams hold back long before, at CONGESTED_BYTES; a result is sent
 * whole or not at all). A console reply keeps at most 8 MiB, a few times that as JSON text.
 */
export const MAX_BUFFERED_BYTES = 64 << 20;

/** Close code for a client that stopped reading: 4xxx is the application's range (4401 is a session's end). */
export const BACKLOG_CLOSE_CODE = 4508;

/**
 * After the close frame is queued, how long a client that does not read gets before its socket
 * (and what it holds) is destroyed: ws itself would wait 30 s for the closing handshake.
 */
const CLOSE_GRACE_MS = 10_000;

export interface WsWireOptions {
  maxBufferedBytes?: number;
  closeGraceMs?: number;
  /** Told once when the socket is closed for its backlog (the server's log). */
  onOverflow?: (message: string) => void;
}

/**
 * Adapts one WebSocket to the dispatcher's Wire. A message that would take the socket's unsent
 * bytes past `maxBufferedBytes` is not sent: the socket is closed with BACKLOG_CLOSE_CODE, the
 * dispatcher is told at once (it cancels the socket's calls and streams), and the socket is
 * destroyed if its client has not read the close frame within the grace.
 */
export function wsWire(socket: WebSocket, opts: WsWireOptions = {}): Wire {
  const max = opts.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  const closers = new Set<() => void>();
  let done = false;
  const closed = (): void => {
    if (done) return;
    done = true;
    for (const cb of [...closers]) cb();
    closers.clear();
  };
  socket.on('close', closed);
  const overflow = (bytes: number): void => {
    const reason = `client read too slowly: ${mib(socket.bufferedAmount)} unsent, a ${mib(bytes)} message next; the bound is ${mib(max)}`;
    opts.onOverflow?.(`WebSocket closed (${BACKLOG_CLOSE_CODE}): ${reason}`);
    // A close reason is at most 123 bytes.
    socket.close(BACKLOG_CLOSE_CODE, 'client read too slowly: serve holds at most ' + mib(max) + ' unsent');
    closed();
    const kill = setTimeout(() => socket.terminate(), opts.closeGraceMs ?? CLOSE_GRACE_MS);
    socket.once('close', () => clearTimeout(kill));
  };
  return {
    send(m: ServerMessage) {
      if (done || socket.readyState !== socket.OPEN) return;
      const data = Buffer.from(JSON.stringify(m), 'utf8');
      if (socket.bufferedAmount + data.length > max) overflow(data.length);
      else socket.send(data, { binary: false });
    },
    onMessage(cb) {
      const h = (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
        // Binary frames are not part of the protocol; let the dispatcher reject them.
        // Nothing more is read once the socket is closing for its backlog.
        if (!done) cb(isBinary ? null : Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
      };
      socket.on('message', h);
      return () => socket.off('message', h);
    },
    onClose(cb) {
      if (done) {
        cb();
        return () => undefined;
      }
      closers.add(cb);
      return () => closers.delete(cb);
    },
    congested: () => socket.bufferedAmount > CONGESTED_BYTES,
  };
}

const mib = (n: number): string => `${(n / (1 << 20)).toFixed(1)} MiB`;
