import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../../../app/errors';
import { encodeCommand } from '../../resp/encodeCommand';
import type { RawTarget } from '../../resp/rawTarget';
import { ReplyError } from '../../resp/replyReader';
import { RespPipe } from '../../resp/respPipe';
import { quantile } from './latencyControl';

const PING = encodeCommand(['PING']);
const INFO_REPLICATION = encodeCommand(['INFO', 'replication']);

/** PINGs in the idle measurement, and the gap between them: ~30 ms before a run starts. */
const IDLE_SAMPLES = 20;
const IDLE_GAP_MS = 1;

/**
 * The pacer's own connection to the node: one PING at a time, timed, and INFO replication.
 * Its own socket, so its PINGs queue behind the run's commands on the server like anyone
 * else's would. (Timed in this process, so a reply that lands while the run counts a page
 * reads a little late: the pace errs on the gentle side.)
 */
export class PaceProbe {
  private constructor(private readonly pipe: RespPipe) {}

  static async open(target: RawTarget): Promise<PaceProbe> {
    return new PaceProbe(new RespPipe(await target.connect(), target.errorContext, 'during a paced run (its latency probe); nothing was changed on the server.'));
  }

  /** One PING's round trip (ms). */
  async ping(): Promise<number> {
    const t0 = performance.now();
    const [reply] = await this.pipe.send(PING, 1);
    if (reply instanceof ReplyError) throw this.pipe.errorOf(reply);
    return performance.now() - t0;
  }

  /** The PING p99 of a quiet moment, before the run adds its load. */
  async idleP99(signal: AbortSignal): Promise<number> {
    const rtts: number[] = [];
    for (let i = 0; i < IDLE_SAMPLES; i++) {
      if (signal.aborted) throw new AppError('CANCELLED', 'The run was cancelled before it began.');
      rtts.push(await this.ping());
      await sleep(IDLE_GAP_MS);
    }
    return quantile(rtts, 0.99);
  }

  /** INFO replication as text; null when the server refuses INFO (an ACL), so lag can't be watched. */
  async replication(): Promise<string | null> {
    const [reply] = await this.pipe.send(INFO_REPLICATION, 1, true);
    if (reply instanceof ReplyError) return null;
    return typeof reply === 'string' ? reply : Buffer.isBuffer(reply) ? reply.toString('latin1') : null;
  }

  close(): Promise<void> {
    return this.pipe.close().catch(() => this.pipe.destroy());
  }
}
