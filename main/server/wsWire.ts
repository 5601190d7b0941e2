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

/** Adapts one WebSocket to the dispatcher's Wire. */
export function wsWire(socket: WebSocket): Wire {
  return {
    send(m: ServerMessage) {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
    },
    onMessage(cb) {
      const h = (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
        // Binary frames are not part of the protocol; let the dispatcher reject them.
        cb(isBinary ? null : Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
      };
      socket.on('message', h);
      return () => socket.off('message', h);
    },
    onClose(cb) {
      socket.on('close', cb);
      return () => socket.off('close', cb);
    },
    congested: () => socket.bufferedAmount > CONGESTED_BYTES,
  };
}
