import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/**
 * One raw RESP round trip: AUTH (when a password is set), PING, INFO server.
 * Answers true on +PONG from the process we spawned: INFO's process_id must be
 * its pid, since another server may already own the port we were given. A
 * server still loading its dataset replies -LOADING to PING, and a closed port
 * refuses, so both answer false and the caller polls again.
 */
function pingOnce(o: PingUntilReadyOptions, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let buf = '';
    const { host, port, password, pid } = o;
    const send = (): void => {
      const auth = password === undefined ? '' : resp(['AUTH', password]);
      sock.write(auth + resp(['PING']) + resp(['INFO', 'server']));
    };
    // Readiness only: the certificate is checked by the code under test, not here.
    const sock: Socket = o.tls ? tlsConnect({ host, port, rejectUnauthorized: false }, send) : connect({ host, port }, send);
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      sock.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    sock.setEncoding('utf8');
    sock.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.startsWith('-') || buf.includes('\r\n-')) return done(false);
      const m = /\r\nprocess_id:(\d+)\r\n/.exec(buf);
      if (m) done(buf.includes('+PONG\r\n') && Number(m[1]) === pid);
    });
    sock.on('error', () => done(false));
    sock.on('close', () => done(false));
  });
}

function resp(args: string[]): string {
  return `*${args.length}\r\n` + args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('');
}

export interface PingUntilReadyOptions {
  host: string;
  port: number;
  password?: string;
  /** The pid INFO must report. */
  pid: number;
  /** Speak TLS (a server started with only a tls-port). */
  tls?: boolean;
  deadline: number;
  /** Stop early when this says the process is gone. */
  gone: () => boolean;
}

export async function pingUntilReady(o: PingUntilReadyOptions): Promise<boolean> {
  while (Date.now() < o.deadline && !o.gone()) {
    if (await pingOnce(o, 500)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}
