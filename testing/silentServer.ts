import { createServer, type Socket } from 'node:net';

export interface SilentServer {
  port: number;
  close(): Promise<void>;
}

/** A TCP listener on a free loopback port that hands each connection to `onSocket`; close() drops them all. */
export function loopbackServer(onSocket: (s: Socket) => void): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const srv = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    onSocket(s);
  });
  return new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            srv.close(() => done());
          }),
      });
    });
  });
}

/** Accepts TCP connections and never writes a byte: what a hung server looks like to a client. */
export function silentServer(): Promise<SilentServer> {
  return loopbackServer(() => undefined);
}
