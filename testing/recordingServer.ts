import { createServer, type Socket } from 'node:net';

export interface RecordingServer {
  port: number;
  /** Every byte any client sent so far, as latin1 text (RESP commands read as they were typed). */
  received(): string;
  close(): Promise<void>;
}

/**
 * A host that listens and records what clients send, then hangs up: the attacker's machine in
 * tests of where secrets go (a profile pointed at it must not send it a stored password). It
 * answers nothing, and closes each connection shortly after its first bytes so a client fails
 * fast instead of waiting out its timeout.
 */
export function recordingServer(): Promise<RecordingServer> {
  const sockets = new Set<Socket>();
  const chunks: Buffer[] = [];
  const srv = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    s.on('data', (d: Buffer) => {
      chunks.push(d);
      setTimeout(() => s.destroy(), 50);
    });
  });
  return new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      resolve({
        port,
        received: () => Buffer.concat(chunks).toString('latin1'),
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            srv.close(() => done());
          }),
      });
    });
  });
}
