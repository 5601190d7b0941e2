import { AppError } from '../../../app/errors';
import { RespBuilder } from '../resp/respBuilder';
import { KeyHashSet } from '../resp/keyHashSet';
import type { KeySource } from './keySource';
import { ReplyError, type Reply } from '../resp/replyReader';
import type { RespPipe } from '../resp/respPipe';

/**
 * Every key once, by SCAN with a large COUNT (never KEYS, which blocks the
 * server for the whole keyspace). SCAN returns a key present for the whole
 * scan at least once, but can return it twice when the table is resized
 * during the scan: the keys seen are kept as 64-bit hashes (8-16 bytes a key)
 * so a repeat is skipped rather than counted twice. Keys added or deleted
 * during the scan may or may not be seen: the census is of a moving keyspace.
 */
export class ScanSource implements KeySource {
  private readonly builder = new RespBuilder(64 * 1024);
  private readonly seen: KeyHashSet;
  private cursor: string | null = '0';
  private pending: Promise<Reply[]> | null = null;
  private duplicates = 0;

  constructor(
    private readonly pipe: RespPipe,
    readonly target: number,
    private readonly count: number,
    private readonly match: string | undefined,
  ) {
    // Sized for DBSIZE up front (16 bytes a key, at most 32 MB): growing it step by step
    // rehashes every key seen so far, again and again, while the server waits.
    this.seen = new KeyHashSet(Math.min(2 * target, 1 << 22));
  }

  async next(prefetch: boolean): Promise<Buffer[] | null> {
    if (this.pending === null) {
      if (this.cursor === null) return null;
      this.pending = this.scan(this.cursor);
    }
    const [reply] = await this.pending;
    this.pending = null;
    const { cursor, keys } = parseScan(reply, this.pipe);
    this.cursor = cursor === '0' ? null : cursor;
    if (prefetch && this.cursor !== null) this.pending = this.scan(this.cursor);
    const fresh = keys.filter((k) => this.seen.add(k, 0, k.length));
    this.duplicates += keys.length - fresh.length;
    return fresh;
  }

  warnings(): string[] {
    return this.duplicates > 0 ? [`SCAN returned ${this.duplicates} keys twice (the keyspace was resized during the census); each was counted once`] : [];
  }

  private scan(cursor: string): Promise<Reply[]> {
    const b = this.builder
      .command(this.match === undefined ? 4 : 6)
      .arg('SCAN')
      .arg(cursor);
    if (this.match !== undefined) b.arg('MATCH').arg(this.match);
    b.arg('COUNT').argNumber(this.count);
    return this.pipe.send(b.take(), 1);
  }
}

function parseScan(reply: Reply | undefined, pipe: RespPipe): { cursor: string; keys: Buffer[] } {
  if (reply instanceof ReplyError) throw pipe.errorOf(reply);
  if (Array.isArray(reply) && reply.length === 2 && Buffer.isBuffer(reply[0]) && Array.isArray(reply[1])) {
    const keys = reply[1].filter((k): k is Buffer => Buffer.isBuffer(k));
    return { cursor: reply[0].toString('latin1'), keys };
  }
  throw new AppError('INTERNAL', 'SCAN answered with something other than [cursor, keys]');
}
