import type { Socket } from 'node:net';
import { RespBuilder } from '../resp/respBuilder';
import type { RespPipe } from '../resp/respPipe';
import { ReplyError, type Reply } from '../resp/replyReader';

export type Arg = string | Buffer;

/** Socket byte counters: what one run cost on the wire. */
export interface WireBytes {
  out: number;
  in: number;
}

/** A strategy's command got an error reply (WRONGTYPE, NOPERM, READONLY, OOM…). */
export class CommandRefused extends Error {
  constructor(
    readonly command: string,
    readonly reply: string,
  ) {
    super(`${command} was refused: ${reply}`);
    this.name = 'CommandRefused';
  }

  /** ACL or a read-only replica said no: the strategy cannot run here, which is a skip, not a fault. */
  get permission(): boolean {
    return /^(NOPERM|READONLY)\b/.test(this.reply);
  }
}

/**
 * The trial's raw connection as strategies see it: pipelined commands in, replies out,
 * counting commands, their names (for INFO commandstats) and bytes on the wire.
 */
export class AudienceLink {
  commands = 0;
  readonly names = new Set<string>();
  private readonly builder = new RespBuilder(256 * 1024);

  constructor(
    private readonly pipe: RespPipe,
    private readonly socket: Socket,
  ) {}

  get address(): string {
    return this.pipe.address;
  }

  bytes(): WireBytes {
    return { out: this.socket.bytesWritten, in: this.socket.bytesRead };
  }

  /** Sends every command in one write and resolves with all replies, error replies as ReplyError values. */
  async send(cmds: readonly (readonly Arg[])[]): Promise<Reply[]> {
    const b = this.builder;
    for (const c of cmds) {
      b.command(c.length);
      for (const a of c) {
        if (typeof a === 'string') b.arg(a);
        else b.argBytes(a, 0, a.length);
      }
      this.names.add(String(c[0]).toLowerCase());
    }
    this.commands += cmds.length;
    return this.pipe.send(b.take(), cmds.length);
  }

  /** Like send, but the first error reply throws CommandRefused naming its command. */
  async call(cmds: readonly (readonly Arg[])[]): Promise<Reply[]> {
    const replies = await this.send(cmds);
    const bad = replies.findIndex((r) => r instanceof ReplyError);
    if (bad >= 0) throw new CommandRefused(String(cmds[bad]?.[0]), (replies[bad] as ReplyError).message);
    return replies;
  }
}

/** An integer reply, or 0 for a nil (ZMSCORE of a day nobody in the audience was active on). */
export function int(r: Reply | undefined): number {
  if (typeof r === 'number') return r;
  if (r === null || r === undefined) return 0;
  if (Buffer.isBuffer(r) || typeof r === 'string') return Number(r.toString());
  throw new Error(`expected a number, got ${r instanceof ReplyError ? r.message : typeof r}`);
}
