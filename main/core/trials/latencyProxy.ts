import { createServer, connect, type Server, type Socket } from 'node:net';
import { DelayLine } from './delayLine';

export interface LatencyProxy {
  /** Where to connect instead of the server: a loopback port of this process. */
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly delayMs: number;
  /** Stop listening and drop every proxied connection. */
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy that holds every chunk `delayMs` in each direction
 * before passing it on, so a round trip costs about 2 × delayMs more: a
 * server across a network, simulated next to a local one. It forwards bytes
 * and knows nothing of RESP, so AUTH, TLS and everything else pass through.
 */
export async function startLatencyProxy(upstream: { host: string; port: number }, delayMs: number): Promise<LatencyProxy> {
  const line = new DelayLine(delayMs);
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    // Without a listener an 'error' (a reset) would crash the process; close() cleans up.
    s.on('error', () => undefined);
  };
  const server: Server = createServer((client) => {
    const up = connect({ host: upstream.host, port: upstream.port });
    for (const s of [client, up]) {
      track(s);
      // Each chunk is one delayed write: Nagle would add its own, unpredictable wait.
      s.setNoDelay(true);
    }
    forward(line, client, up);
    forward(line, up, client);
    // A close travels like data, after what was sent before it.
    client.on('close', () => line.push(() => up.destroy()));
    up.on('close', () => line.push(() => client.destroy()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the latency proxy has no TCP address');
  return {
    host: '127.0.0.1',
    port: address.port,
    delayMs,
    close: () =>
      new Promise((resolve) => {
        line.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** from → (delay) → to, with backpressure: a full `to` pauses `from` until it drains. */
function forward(line: DelayLine, from: Socket, to: Socket): void {
  from.on('data', (chunk: Buffer) =>
    line.push(() => {
      if (to.destroyed) return;
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
    }),
  );
  from.on('end', () => line.push(() => to.end()));
}
