import { connect, createServer, type Socket } from 'node:net';

/**
 * TEST ONLY (the fault suite): a TCP proxy in front of a Redis server, to break the
 * connections going through it as a network would. cut() resets every connection open
 * now (RST); stall() stops forwarding on them in both directions without closing
 * anything (a partition: no RST, no FIN). Connections made afterwards pass normally.
 */
export interface TcpProxy {
  port: number;
  url: string;
  cut(): void;
  stall(): void;
  close(): Promise<void>;
}

export function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket; stalled: boolean }>();
  const srv = createServer((client) => {
    const upstream = connect(target.port, target.host);
    const pair = { client, upstream, stalled: false };
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) => from.on('data', (d: Buffer) => (pair.stalled ? undefined : to.write(d)));
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', () => (pair.stalled ? undefined : end()));
    }
  });
  return new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      resolve({
        port,
        url: `redis://127.0.0.1:${port}`,
        cut: () => {
          for (const p of [...pairs]) {
            pairs.delete(p);
            p.client.resetAndDestroy();
            p.upstream.resetAndDestroy();
          }
        },
        stall: () => {
          for (const p of pairs) p.stalled = true;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const p of pairs) {
              p.client.destroy();
              p.upstream.destroy();
            }
            srv.close(() => done());
          }),
      });
    });
  });
}
