import { AppError } from '../../../../app/errors';
import type { ProfileSpec } from '../../../../app/schemas/connections';
import { encodeCommand } from '../../resp/encodeCommand';
import { openRawConnection, type RawConnection } from '../../resp/rawConnection';
import { readReply, type ReadReply } from '../reply/readReply';
import type { ReplyFiles } from '../reply/replyFiles';

export type Protocol = 2 | 3;

/** What a reply is read with: who owns its download file, and how the file is written. */
export interface ReplyOptions {
  files: ReplyFiles;
  owner: string;
  raw: boolean;
}

/** The error text of a reply, or undefined when it is not an error. */
export function errorText(r: ReadReply): string | undefined {
  return r.reply.t === 'error' ? r.reply.v : undefined;
}

/**
 * One console connection to one node: a raw socket (authenticated, named, on its DB) that
 * carries the console's commands one at a time, and what those commands changed on it (DB,
 * protocol, an open MULTI), so the next run sees the same session redis-cli would.
 */
export class ConsoleLink {
  lastUsed = Date.now();
  /** Inside MULTI: commands are queued, a blocking one too (so it stays on this link). */
  inMulti = false;
  /** False once the server refused HELLO (Redis before 6): RESP2 only. */
  helloWorks = true;
  /** Runs holding or waiting for the link: an idle sweep never closes it under them. */
  busy = 0;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly conn: RawConnection,
    public db: number,
    public protocol: Protocol,
  ) {}

  /** A connection to the node `spec` names, on `db`, speaking `protocol` when the server can. */
  static async open(spec: ProfileSpec, db: number, protocol: Protocol, name: string, reply: ReplyOptions): Promise<ConsoleLink> {
    const link = new ConsoleLink(await openRawConnection(spec, db, { name }), db, 2);
    try {
      await link.speak(protocol, reply);
    } catch (err) {
      link.conn.destroy();
      throw err;
    }
    return link;
  }

  get closed(): boolean {
    return this.conn.socket.destroyed;
  }

  /** One exchange at a time: a second run on the same console waits for the first. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.busy++;
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      this.busy--;
      this.lastUsed = Date.now();
    }
  }

  /** Write one command and read its one reply; aborting rejects (CANCELLED) and the caller destroys the link. */
  async send(args: readonly Buffer[], reply: ReplyOptions, signal?: AbortSignal): Promise<ReadReply> {
    if (signal?.aborted === true) throw new AppError('CANCELLED', 'The command was stopped before it was sent');
    this.lastUsed = Date.now();
    const reading = readReply(this.conn.socket, { ...reply, ...(signal === undefined ? {} : { signal }) });
    this.conn.socket.write(encodeCommand(args));
    const r = await reading;
    this.lastUsed = Date.now();
    return r;
  }

  /** HELLO `protocol` unless already spoken; a server without HELLO stays on RESP2. */
  async speak(protocol: Protocol, reply: ReplyOptions): Promise<void> {
    if (this.protocol === protocol || !this.helloWorks) return;
    const r = await this.send([Buffer.from('HELLO'), Buffer.from(String(protocol))], reply);
    const error = errorText(r);
    if (error === undefined) this.protocol = protocol;
    // "unknown command" (before 6.0) or NOPROTO: what the server speaks is RESP2.
    else this.helloWorks = false;
  }

  /** SELECT `db` unless already there; an error reply (cluster, ACL) is the caller's to show. */
  async select(db: number, reply: ReplyOptions): Promise<string | undefined> {
    if (this.db === db) return undefined;
    const error = errorText(await this.send([Buffer.from('SELECT'), Buffer.from(String(db))], reply));
    if (error === undefined) this.db = db;
    return error;
  }

  /** What a command the user typed changed on this connection, from its reply. */
  noteEffects(args: readonly string[], r: ReadReply): void {
    const name = (args[0] ?? '').toUpperCase();
    const ok = errorText(r) === undefined;
    if (name === 'SELECT' && ok && !this.inMulti) this.db = Number(args[1]);
    else if (name === 'MULTI' && ok) this.inMulti = true;
    else if (name === 'EXEC' || name === 'DISCARD') this.inMulti = false;
    else if (name === 'HELLO' && ok && (args[1] === '2' || args[1] === '3')) this.protocol = Number(args[1]) as Protocol;
    else if (name === 'RESET' && ok) {
      this.db = 0;
      this.protocol = 2;
      this.inMulti = false;
    }
  }

  destroy(): void {
    this.conn.destroy();
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}
