import { connect, type Socket } from 'node:net';

/** Sockets opened at once: the server's accept queue (tcp-backlog 511) is never overrun. */
const WAVE = 250;

export interface IdleClients {
  readonly count: number;
  /** Close every socket; resolves once each has closed. */
  close(): Promise<void>;
}

/**
 * `n` clients of `server` that connect and send nothing: the cheapest way to give a
 * server thousands of CLIENT LIST lines (one file descriptor here and one there each, so
 * check `ulimit -n` and raise the server's maxclients first).
 */
export async function openIdleClients(server: { host: string; port: number }, n: number): Promise<IdleClients> {
  const sockets: Socket[] = [];
  const close = async () => {
    await Promise.all(
      sockets.splice(0).map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.destroyed) resolve();
            else s.once('close', () => resolve()).destroy();
          }),
      ),
    );
  };
  try {
    while (sockets.length < n) {
      const wave = Array.from({ length: Math.min(WAVE, n - sockets.length) }, () => connect(server.port, server.host));
      sockets.push(...wave);
      await Promise.all(wave.map((s) => new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject))));
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { count: sockets.length, close };
}

/**
 * A raw socket named `name` that then sends what the test writes and reads only when
 * resumed: `pause()` it and ask for big replies, and its output buffer grows on the server.
 */
export async function namedSocket(server: { host: string; port: number }, name: string): Promise<Socket> {
  const s = connect(server.port, server.host);
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  s.write(`CLIENT SETNAME ${name}\r\n`);
  await new Promise<void>((resolve) => s.once('data', () => resolve()));
  return s;
}
