import { AppError } from '../../../app/errors';
import { readRefusal } from '../redis/refusal';
import { LiveLink, type LinkListener, type LinkState } from '../live/liveLink';
import type { RawConnection } from '../resp/rawConnection';
import { MonitorLineError, parseMonitorLine, type MonitorEntry } from './monitorLine';

export type SourceState = LinkState;

/** The link's state, gaps (from the last line's time) and fatal errors (MONITOR refused), and each line. */
export interface SourceListener extends Pick<LinkListener, 'state' | 'gap' | 'fatal'> {
  entry(e: MonitorEntry): void;
}

const CR = 0x0d;
const LF = 0x0a;
const PLUS = 0x2b;
const MINUS = 0x2d;
const MONITOR = Buffer.from('*1\r\n$7\r\nMONITOR\r\n');

/**
 * One MONITOR connection to one node, on a LiveLink (read continuously, reconnected
 * with a gap marker): this class only asks for MONITOR and parses its lines.
 */
export class MonitorSource {
  /** Lines received from the server since start (parsed or not). */
  received = 0;
  /** Lines that did not parse (counted, skipped). */
  unparsed = 0;
  private carry: Buffer | undefined;
  private readonly link: LiveLink;

  constructor(
    readonly address: string,
    open: () => Promise<RawConnection>,
    private readonly listener: SourceListener,
  ) {
    this.link = new LiveLink(address, open, {
      opened: (conn) => {
        this.carry = undefined;
        conn.socket.write(MONITOR);
      },
      data: (chunk) => this.onData(chunk),
      state: (s, m) => listener.state(s, m),
      gap: (from, to, reason) => listener.gap(from, to, reason),
      fatal: (err) => listener.fatal(err),
    });
  }

  get state(): SourceState {
    return this.link.state;
  }

  /** The connection's name-independent handle, e.g. to find it in CLIENT LIST. */
  get clientId(): number | undefined {
    return this.link.clientId;
  }

  start(): void {
    this.link.start();
  }

  stop(): void {
    this.link.stop();
  }

  private onData(chunk: Buffer): void {
    let buf = chunk;
    if (this.carry !== undefined) {
      buf = Buffer.concat([this.carry, chunk]);
      this.carry = undefined;
    }
    let pos = 0;
    const end = buf.length;
    while (pos < end) {
      const lf = buf.indexOf(LF, pos);
      if (lf < 0) break;
      const lineEnd = lf > pos && buf[lf - 1] === CR ? lf - 1 : lf;
      this.onLine(buf, pos, lineEnd);
      pos = lf + 1;
    }
    if (pos < end) this.carry = buf.subarray(pos);
  }

  private onLine(buf: Buffer, start: number, end: number): void {
    const first = buf[start];
    if (first === MINUS) {
      // MONITOR refused: retrying would not help. NOPERM (the ACL) or UNSUPPORTED (renamed away) is
      // the page's one line of a missing command; any other error reply stays an error.
      const message = buf.toString('utf8', start + 1, end);
      const refused = readRefusal(message, ['MONITOR']);
      const code = refused === undefined ? 'INTERNAL' : refused.kind === 'acl' ? 'NOPERM' : 'UNSUPPORTED';
      this.link.refuse(new AppError(code, `${this.address} refused MONITOR: ${message}`));
      return;
    }
    if (first !== PLUS) return;
    if (end - start === 3 && buf[start + 1] === 0x4f && buf[start + 2] === 0x4b) return; // +OK to MONITOR
    this.received++;
    let e: MonitorEntry;
    try {
      e = parseMonitorLine(buf, start + 1, end);
    } catch (err) {
      if (!(err instanceof MonitorLineError)) throw err;
      this.unparsed++;
      return;
    }
    this.link.lastSeen = e.ts;
    this.listener.entry(e);
  }
}
