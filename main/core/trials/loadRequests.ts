import { SCRATCH_TTL_MS } from './scratch';
import { AppError } from '../../../app/errors';
import type { RawConnection } from '../resp/rawConnection';
import { ReplyParser } from '../resp/replyParser';
import { LatencyHistogram } from './latencyHistogram';

export interface LoadPlan {
  command: 'set' | 'get';
  /** Requests in all, shared by the clients. */
  n: number;
  dataSize: number;
  keyspace: number;
  prefix: string;
}

export interface LoadFigures {
  requests: number;
  histogram: LatencyHistogram;
  errors: number;
  /** The first error reply, for the report. */
  firstError: string | undefined;
}

/** redis-benchmark's key shape: `key:` and a random number of 12 digits. */
const DIGITS = 12;

/**
 * One request as bytes, with the place of the key's digits. Each client keeps its
 * own copy and rewrites the digits in place before each write: with one request in
 * flight, the previous write has been read by the server (it answered), so the
 * buffer is free again.
 */
export function requestTemplate(plan: Pick<LoadPlan, 'command' | 'dataSize' | 'prefix'>): { bytes: Buffer; digitsAt: number } {
  const key = `${plan.prefix}key:${'0'.repeat(DIGITS)}`;
  // SET … PX: every scratch key expires on its own, so a killed trial leaks nothing for long
  // (two more arguments than redis-benchmark's plain SET: the comparison says so).
  const ttl = String(SCRATCH_TTL_MS);
  const head = plan.command === 'set' ? '*5\r\n$3\r\nSET\r\n' : '*2\r\n$3\r\nGET\r\n';
  const keyPart = `$${key.length}\r\n${key}\r\n`;
  const value = plan.command === 'set' ? `$${plan.dataSize}\r\n${'x'.repeat(plan.dataSize)}\r\n$2\r\nPX\r\n$${ttl.length}\r\n${ttl}\r\n` : '';
  const text = head + keyPart + value;
  return { bytes: Buffer.from(text, 'latin1'), digitsAt: head.length + keyPart.length - 2 - DIGITS };
}

/**
 * redis-benchmark's loop on raw sockets: every connection keeps exactly one
 * request in flight, sending the next the moment a reply is complete, until `n`
 * requests were sent in all; each request's time from write to reply goes into
 * one histogram. Nothing but counting happens per reply (no decoding, no
 * promise), which is what lets one Node thread keep up with the C tool.
 * Error replies are counted and the run goes on, as redis-benchmark does.
 */
export function sendRequests(conns: readonly RawConnection[], plan: LoadPlan, onReply: () => void, signal: AbortSignal): Promise<LoadFigures> {
  const template = requestTemplate(plan);
  const figures: LoadFigures = { requests: 0, histogram: new LatencyHistogram(), errors: 0, firstError: undefined };
  let issued = 0;
  let answered = 0;
  return new Promise((resolve, reject) => {
    const detach: (() => void)[] = [];
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      for (const d of detach) d();
      figures.requests = answered;
      if (err === undefined) resolve(figures);
      else reject(err);
    };
    const onError = (_index: number, message: string) => {
      figures.errors++;
      figures.firstError ??= message;
    };
    for (const conn of conns) {
      const buf = Buffer.from(template.bytes);
      const parser = new ReplyParser(onError);
      let sentAt = 0;
      const next = () => {
        if (issued >= plan.n || signal.aborted) {
          if (answered === issued) settle();
          return;
        }
        issued++;
        const r = Math.floor(Math.random() * plan.keyspace);
        buf.write(String(r).padStart(DIGITS, '0'), template.digitsAt, 'latin1');
        sentAt = performance.now();
        conn.socket.write(buf);
      };
      const onData = (chunk: Buffer) => {
        const before = parser.replies;
        try {
          parser.feed(chunk);
        } catch (e) {
          settle(e instanceof Error ? e : new Error(String(e)));
          return;
        }
        if (parser.replies === before) return;
        figures.histogram.recordMs(performance.now() - sentAt);
        answered += parser.replies - before;
        onReply();
        next();
      };
      const onClose = () => settle(new AppError('DISCONNECTED', `A load connection to ${conn.address} closed with requests in flight.`));
      conn.socket.on('data', onData);
      conn.socket.on('close', onClose);
      detach.push(() => {
        conn.socket.off('data', onData);
        conn.socket.off('close', onClose);
      });
      next();
    }
    if (conns.length === 0 || plan.n === 0) settle();
  });
}
