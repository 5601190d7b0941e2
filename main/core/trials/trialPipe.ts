import { AppError } from '../../../app/errors';
import type { RawConnection } from '../resp/rawConnection';
import type { ErrorContext } from '../pool/redisErrors';
import { ReplyError, type Reply } from '../resp/replyReader';
import { RespPipe } from '../resp/respPipe';

/** One command as RESP text. Trial keys and values are ASCII, so text is what goes on the wire. */
export function resp(args: readonly string[]): string {
  let out = `*${args.length}\r\n`;
  for (const a of args) out += `$${Buffer.byteLength(a)}\r\n${a}\r\n`;
  return out;
}

/**
 * Request/reply on a raw socket of the trial's own. A trial stops at the first
 * error reply, nested ones included: a SET refused inside MULTI/EXEC (OOM, say)
 * answers EXEC with an array holding the error, and is as failed as a plain one.
 */
export class TrialPipe {
  private readonly pipe: RespPipe;

  constructor(
    private readonly conn: RawConnection,
    ctx: ErrorContext,
  ) {
    this.pipe = new RespPipe(conn, ctx, 'during the trial; its scratch keys are removed by the next cleanup pass.');
  }

  get address(): string {
    return this.conn.address;
  }

  /** Write `count` ready-encoded commands at once and resolve with their replies. */
  async send(text: string, count: number): Promise<Reply[]> {
    const replies = await this.pipe.send(Buffer.from(text, 'latin1'), count);
    const bad = firstError(replies);
    if (bad !== undefined) throw this.pipe.errorOf(bad);
    return replies;
  }

  async call(...args: string[]): Promise<Reply> {
    const [reply] = await this.send(resp(args), 1);
    return reply ?? null;
  }

  async integer(...args: string[]): Promise<number> {
    const n = await this.call(...args);
    if (typeof n !== 'number') throw new AppError('INTERNAL', `${args[0]} answered with something other than a number`);
    return n;
  }

  /** A bulk-string reply as text (INFO), '' for null. */
  async text(...args: string[]): Promise<string> {
    const r = await this.call(...args);
    return Buffer.isBuffer(r) ? r.toString('utf8') : typeof r === 'string' ? r : '';
  }

  close(): Promise<void> {
    return this.pipe.close();
  }

  /** Drop the connection at once: the server discards what it has not run yet. */
  destroy(): void {
    this.pipe.destroy();
  }
}

function firstError(replies: readonly Reply[]): ReplyError | undefined {
  for (const r of replies) {
    if (r instanceof ReplyError) return r;
    if (Array.isArray(r)) {
      const inner = firstError(r);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}
