import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../../../app/errors';
import { encodeCommand } from '../../resp/encodeCommand';
import type { RawTarget } from '../../resp/rawTarget';
import { ReplyError, type Reply } from '../../resp/replyReader';
import { RespPipe } from '../../resp/respPipe';
import { quantile } from './latencyControl';

const PING = encodeCommand(['PING']);
const TIME = encodeCommand(['TIME']);
const INFO_REPLICATION = encodeCommand(['INFO', 'replication']);

/** Probes in the idle measurement, and the gap between them: ~30 ms before a run starts. */
const IDLE_SAMPLES = 20;
const IDLE_GAP_MS = 1;
/** Legs kept for their minimum (at one probe every 10 ms: the last two seconds). */
const LEGS = 200;

/**
 * The pacer's own connection to the node: one probe at a time, timed, and INFO replication.
 * Its own socket, so its probes queue behind the run's commands on the server like anyone
 * else's would.
 *
 * A round trip timed in this process also holds this process's own delays: a reply that lands
 * while the run counts a page, or while the OS runs something else on a busy machine, reads
 * late, though the server answered at once (on a loaded 2-core box, 20 ms where a separate
 * process saw 4). So the probe is TIME, not PING, and its round trip is cut in two legs by the
 * server's clock: out (sent → executed: the server's own wait, what other clients feel) and
 * back (executed → read here). The sample is the out leg plus the shortest back leg of the last
 * two seconds: a round trip as a client with a free event loop would see it. The two clocks'
 * offset cancels out (the shortest legs are taken over a sliding window, so slow drift does
 * too). A reply the server held back behind a command it ran in the same turn is not seen (at
 * most one of the run's commands). Where ACL refuses TIME, the probe is PING, timed whole.
 */
export class PaceProbe {
  private useTime = true;
  private readonly outs = new Float64Array(LEGS);
  private readonly backs = new Float64Array(LEGS);
  private legs = 0;

  private constructor(private readonly pipe: RespPipe) {}

  static async open(target: RawTarget): Promise<PaceProbe> {
    return new PaceProbe(
      new RespPipe(await target.connect(), target.errorContext, 'during a paced run (its latency probe); nothing was changed on the server.'),
    );
  }

  /** One probe: the round trip as a client with a free event loop would see it (ms). */
  async sample(): Promise<number> {
    if (!this.useTime) return this.ping();
    const sent = wallMs();
    const [reply] = await this.pipe.send(TIME, 1, true);
    const read = wallMs();
    if (reply instanceof ReplyError) {
      if (!reply.message.startsWith('NOPERM')) return read - sent;
      // An ACL without TIME: PING from now on.
      this.useTime = false;
      return this.ping();
    }
    const at = serverMs(reply);
    if (at === null) throw new AppError('REDIS', 'TIME answered with something other than [seconds, microseconds]');
    const i = this.legs++ % LEGS;
    this.outs[i] = at - sent;
    this.backs[i] = read - at;
    return at - sent + minOf(this.backs, Math.min(this.legs, LEGS));
  }

  /** The probe's p99 in a quiet moment, before the run adds its load. */
  async idleP99(signal: AbortSignal): Promise<number> {
    const rtts: number[] = [];
    for (let i = 0; i < IDLE_SAMPLES; i++) {
      if (signal.aborted) throw new AppError('CANCELLED', 'The run was cancelled before it began.');
      rtts.push(await this.sample());
      await sleep(IDLE_GAP_MS);
    }
    // The first samples knew fewer back legs: read them again against all twenty.
    if (this.useTime) {
      const back = minOf(this.backs, Math.min(this.legs, LEGS));
      for (let i = 0; i < rtts.length && i < this.legs; i++) rtts[i] = (this.outs[i] as number) + back;
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

  /** One PING's whole round trip (ms). */
  private async ping(): Promise<number> {
    const t0 = performance.now();
    const [reply] = await this.pipe.send(PING, 1);
    if (reply instanceof ReplyError && reply.message.startsWith('NOPERM')) throw this.pipe.errorOf(reply);
    return performance.now() - t0;
  }
}

/** This machine's clock in ms, to the microsecond (the legs are differences against the server's). */
function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

/** TIME's [seconds, microseconds] as ms; null if the reply is not that. */
function serverMs(reply: Reply | undefined): number | null {
  if (!Array.isArray(reply) || reply.length !== 2) return null;
  const [s, us] = reply.map((x) => Number(typeof x === 'string' || Buffer.isBuffer(x) ? x.toString() : NaN));
  return Number.isFinite(s) && Number.isFinite(us) ? (s as number) * 1000 + (us as number) / 1000 : null;
}

function minOf(xs: Float64Array, n: number): number {
  let m = Infinity;
  for (let i = 0; i < n; i++) if ((xs[i] as number) < m) m = xs[i] as number;
  return m;
}
