import { AppError } from '../../../app/errors';
import type { KeySource } from './keySource';
import { ReplyError, type Reply } from '../resp/replyReader';
import type { RespPipe } from '../resp/respPipe';

const RANDOMKEY = Buffer.from('*1\r\n$9\r\nRANDOMKEY\r\n');

/**
 * `samples` RANDOMKEY draws, pipelined in batches. Draws are with replacement
 * (a key can come twice), which is what makes each draw an independent trial
 * and the Wilson interval apply. Redis picks "fairly" (dictGetFairRandomKey
 * samples a few buckets, so keys in long chains are not under-drawn), and
 * skips keys whose TTL has passed.
 */
export class RandomKeySource implements KeySource {
  private drawn = 0;
  private pending: Promise<Reply[]> | null = null;
  private empty = false;

  constructor(
    private readonly pipe: RespPipe,
    readonly target: number,
    private readonly batch: number,
  ) {}

  async next(prefetch: boolean): Promise<Buffer[] | null> {
    this.pending ??= this.draw();
    if (this.pending === null) return null;
    const replies = await this.pending;
    this.pending = prefetch ? this.draw() : null;
    const keys: Buffer[] = [];
    for (const r of replies) {
      if (r instanceof ReplyError) throw this.pipe.errorOf(r);
      if (r === null)
        this.empty = true; // nil: the DB is empty (now)
      else if (Buffer.isBuffer(r)) keys.push(r);
      else throw new AppError('INTERNAL', 'RANDOMKEY answered with something other than a key or nil');
    }
    // An empty DB answers nil to every draw: stop rather than draw nothing `samples` times.
    if (this.empty) this.drawn = this.target;
    return keys.length === 0 && this.empty ? null : keys;
  }

  warnings(): string[] {
    return [];
  }

  private draw(): Promise<Reply[]> | null {
    const n = Math.min(this.batch, this.target - this.drawn);
    if (n <= 0) return null;
    this.drawn += n;
    return this.pipe.send(Buffer.concat(new Array<Buffer>(n).fill(RANDOMKEY)), n);
  }
}
