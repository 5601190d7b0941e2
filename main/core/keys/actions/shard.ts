import { AppError } from '../../../../app/errors';
import type { Pace } from '../../../../app/schemas/keyActions';
import { RespBuilder } from '../../resp/respBuilder';
import { RespPipe } from '../../resp/respPipe';
import type { RawTarget } from '../../resp/rawTarget';
import { ReplyError, type Reply } from '../../resp/replyReader';
import { encodeCommand } from '../../resp/encodeCommand';
import { unlessRefused } from '../../redis/refusal';
import { startPacer, type BatchSizing, type Pacer } from '../pace/pacer';
import type { ActionPlan } from './actionPlan';
import { ACTION_SCRIPT, type ScriptMode } from './actionScript';
import { inFailoverWindow } from './clusterRetry';
import type { KeyHashSet } from '../../resp/keyHashSet';
import type { ShardCheckpoint } from './checkpoints';
import { ExportFile } from './exportFile';
import { serverIdentityOfText } from '../../redis/serverIdentity';

/**
 * SCAN COUNT for a bulk action. SCAN makes an object of every key it walks before MATCH drops
 * most, so a call's server time grows with its COUNT. Paced, the count follows the latency budget
 * (keys per ms of budget) so a call with its UNLINKs stays well under a millisecond: a longer call
 * is more often cut mid-way by the OS scheduler on a busy machine, which the pacer's PING probe
 * reads as latency, and it slows the run to a crawl. At full speed latency is not the goal, and a
 * larger count saves round trips. The measurements behind both numbers: docs/benchmarks.md
 * (key-actions, SCAN COUNT).
 */
const SIZING: BatchSizing = { fullCount: 4000, keysPerMs: 250 };
/** Keys a multi-key UNLINK names: a command's server time stays in the tens of µs. */
const UNLINK_KEYS = 128;
const CLOSED_NOTE = 'during a bulk key action; the counts say what was done, and the run can be resumed.';

/** What a shard's run shares with the others. */
export interface ShardContext {
  plan: ActionPlan;
  dryRun: boolean;
  /** Aborted by a cancel or another shard's failure: the page being acted on finishes, then the shard stops. */
  stop: AbortSignal;
  file: ExportFile | null;
  /** A cluster: send one key's script through the cluster client, which follows MOVED and ASK (and rides out a failover). */
  retry: ((mode: ScriptMode, key: Buffer) => Promise<unknown>) | null;
  matched(shard: Shard, key: Buffer): void;
  error(message: string): void;
  /** After each page is done (counts and cursor updated). */
  paged(): void;
  /** Before a page's actions go out, `inFlight` set: the write-ahead checkpoint. */
  acting(): void;
  /** After a page's actions are answered and counted: the keys counted (seenKeys.ts). */
  counted(keys: readonly Buffer[]): void;
  /** Tests: before the act round of each page with matches (after its check round, with a filter). */
  beforeAct?: (keys: Buffer[]) => Promise<void>;
}

/**
 * One shard of a run (a cluster master, or the one server): its connection (SCANs and actions
 * on one pipe, in order), its pacer, and its counts and cursor. Memory per shard is one page:
 * the keys of the last SCAN reply (views into the socket's chunks) and their commands.
 */
export class Shard {
  /** DBSIZE when this shard's walk began (kept across a resume). */
  dbsize = 0;
  /**
   * Keys the run counted before this shard's SCAN started over on a new server process
   * (startOver): acted on again if they are back, not counted again. Null: no start over.
   */
  seen: KeyHashSet | null = null;
  /** Acting on keys counted before (`seen`): their outcomes are not counted again. */
  private quiet = false;
  /** The share of the hash table the SCAN has walked, from the cursor's reversed bits. */
  fraction = 0;
  private readonly builder = new RespBuilder(256 * 1024);

  private constructor(
    readonly counts: ShardCheckpoint,
    private readonly pipe: RespPipe,
    private readonly pacer: Pacer,
  ) {}

  static async open(target: RawTarget, from: ShardCheckpoint, pace: Pace, stop: AbortSignal): Promise<Shard> {
    const pipe = new RespPipe(await target.connect(), target.errorContext, CLOSED_NOTE);
    let pacer: Pacer;
    try {
      pacer = await startPacer(target, pace, stop, SIZING);
    } catch (e) {
      pipe.destroy();
      throw e;
    }
    const shard = new Shard({ ...from }, pipe, pacer);
    shard.fraction = from.done ? 1 : cursorFraction(from.cursor);
    return shard;
  }

  get node(): string {
    return this.counts.node;
  }

  /** Keys walked: the walked share of DBSIZE (exact once done), and never fewer than the keys matched. */
  get scanned(): number {
    const walked = this.counts.done ? Math.max(this.counts.scanned, this.dbsize) : Math.round(this.fraction * this.dbsize);
    return Math.max(walked, this.counts.matched);
  }

  get paused() {
    return this.pacer.state().paused;
  }

  /** One command's reply (DBSIZE, INFO, CONFIG GET, SCRIPT LOAD); an error reply throws, naming the server. */
  async call(args: string[]): Promise<Reply> {
    const [r] = await this.pipe.send(encodeCommand(args), 1);
    if (r instanceof ReplyError) throw this.pipe.errorOf(r);
    return r ?? null;
  }

  /** The major of the Redis version the server is compatible with (INFO server redis_version, which Valkey keeps), 0 when unreadable. */
  async majorVersion(): Promise<number> {
    const info = await this.call(['INFO', 'server']).catch(() => null);
    const m = /^(\d+)/.exec(serverIdentityOfText(Buffer.isBuffer(info) ? info.toString('latin1') : '').redisVersion);
    return m === null ? 0 : Number(m[1]);
  }

  /**
   * Which server process answers (INFO server's run_id, INFO replication's master_replid): a
   * SCAN cursor means something only to the process that gave it. A restart changes the run_id;
   * a replica promoted in the master's place, or a master that resynced, another replid.
   * Undefined where INFO is refused.
   */
  async serverId(): Promise<string | undefined> {
    let refused = false;
    const info = await unlessRefused(this.call(['INFO', 'server']), ['INFO'], () => (refused = true));
    // INFO refused (an ACL user without @dangerous): which process answers cannot be told.
    if (refused) return undefined;
    const repl = await this.call(['INFO', 'replication']);
    const text = `${Buffer.isBuffer(info) ? info.toString('latin1') : ''}${Buffer.isBuffer(repl) ? repl.toString('latin1') : ''}`;
    const field = (name: string) => new RegExp(`^${name}:(\\S+)`, 'm').exec(text)?.[1] ?? '?';
    return `${field('run_id')}/${field('master_replid')}`;
  }

  /** maxmemory-policy, or null when CONFIG GET is refused (an ACL without it). */
  async policy(): Promise<string | null> {
    const r = await this.call(['CONFIG', 'GET', 'maxmemory-policy']).catch(() => null);
    const v = Array.isArray(r) ? r[1] : null;
    return Buffer.isBuffer(v) ? v.toString('latin1') : null;
  }

  /** MEMORY USAGE … SAMPLES 5 of `keys`, pipelined; a key gone since is left out. */
  async memory(keys: Buffer[]): Promise<number[]> {
    const b = new RespBuilder(64 * 1024);
    for (const k of keys) b.command(5).arg('MEMORY').arg('USAGE').argBytes(k, 0, k.length).arg('SAMPLES').arg('5');
    const replies = await this.pipe.send(b.take(), keys.length);
    return replies.filter((r): r is number => typeof r === 'number');
  }

  /**
   * The shard's SCAN from its cursor to the end, or until `stop`. A page once matched is always
   * acted on to its end, so the cursor saved after it and the counts agree exactly.
   *
   * Deletes shrink the table, and a SCAN across a shrink can return a key of the page before
   * again: the next SCAN must run after this page's actions. It goes on the same connection,
   * so the server runs it after them: with plain commands (UNLINK, EXPIRE, PERSIST) it is sent
   * in the same write as the page's actions, one round trip a page. After a script round it
   * waits for the replies (a NOSCRIPT answer is sent again, and must be done before the next
   * SCAN). A dry run changes nothing: its next SCAN goes before its page is counted.
   */
  async run(ctx: ShardContext): Promise<void> {
    if (this.counts.done) return;
    const match = Buffer.from(ctx.plan.selection.match, 'base64');
    if (!(await this.pass(ctx))) return;
    let reply = this.scanReply(await this.pipe.send(this.scanCommand(this.counts.cursor, match), 1));
    for (;;) {
      if (!(await this.pass(ctx))) return;
      const next = reply.cursor === '0' ? null : this.scanCommand(reply.cursor, match);
      const after = await this.page(ctx, reply.keys, next);
      this.counts.inFlight = 0;
      this.counts.cursor = reply.cursor;
      this.counts.done = next === null;
      this.fraction = this.counts.done ? 1 : cursorFraction(reply.cursor);
      this.counts.scanned = this.scanned;
      ctx.paged();
      // A cancel lets the page in flight finish; a next SCAN already answered is dropped, unread.
      if (next === null || ctx.stop.aborted) return;
      reply = this.scanReply(after ?? (await this.pipe.send(next, 1)));
    }
  }

  /** Walk again from cursor 0 (a new server process), not counting again the keys in `seen`. */
  startOver(seen: KeyHashSet): void {
    Object.assign(this.counts, { cursor: '0', done: false });
    this.fraction = 0;
    this.seen = seen;
  }

  /** The pacer's gate before a page; false when the run stops instead. */
  private async pass(ctx: ShardContext): Promise<boolean> {
    try {
      await this.pacer.gate(ctx.stop);
    } catch {
      return false;
    }
    return !ctx.stop.aborted;
  }

  /** `SCAN cursor MATCH pattern COUNT n`, the pacer's n. */
  private scanCommand(cursor: string, match: Buffer): Buffer {
    const count = String(this.pacer.batchSize());
    const head = `*6\r\n$4\r\nSCAN\r\n$${cursor.length}\r\n${cursor}\r\n$5\r\nMATCH\r\n$${match.length}\r\n`;
    return Buffer.concat([Buffer.from(head, 'latin1'), match, Buffer.from(`\r\n$5\r\nCOUNT\r\n$${count.length}\r\n${count}\r\n`, 'latin1')]);
  }

  /** The last of `replies` as a SCAN page: its cursor and matching keys (views into the reply). */
  private scanReply(replies: Reply[]): { cursor: string; keys: Buffer[] } {
    const r = replies[replies.length - 1];
    if (r instanceof ReplyError) throw this.pipe.errorOf(r);
    const [cursor, keys] = Array.isArray(r) ? r : [];
    if (!Buffer.isBuffer(cursor) || !Array.isArray(keys)) throw new AppError('INTERNAL', 'SCAN answered with something other than [cursor, keys]');
    return { cursor: cursor.toString('latin1'), keys: keys.filter((k): k is Buffer => Buffer.isBuffer(k)) };
  }

  /**
   * Checks (with a filter) and acts on one page; with `next` (the following SCAN), sends it
   * where it is safe and returns the replies it ended, else null (the caller sends it). The
   * page's matched and acted counts are added together, once its actions are answered.
   */
  private async page(ctx: ShardContext, keys: Buffer[], next: Buffer | null): Promise<Reply[] | null> {
    const { plan } = ctx;
    const early = next !== null && (ctx.dryRun || keys.length === 0) ? this.pipe.send(next, 1) : null;
    // A rejection is awaited below, after this page is counted: not unhandled meanwhile.
    early?.catch(() => undefined);
    let matched = keys;
    if (plan.filtered && keys.length > 0) {
      const { replies: checks } = await this.round(ctx, keys, 'check', (b, k) => plan.check(b, k));
      matched = keys.filter((_, i) => checks[i] === 1);
      for (const r of checks) if (r !== 1 && r !== 0) this.failed(ctx, r);
    }
    if (ctx.dryRun || matched.length === 0) {
      this.matched(ctx, matched);
      return early === null ? null : await early;
    }
    await ctx.beforeAct?.(matched);
    const { fresh, again } = split(this.seen, matched);
    // Keys this run counted before the server restarted (or failed over): acted on again (a
    // reloaded RDB may have brought them back), counted once. An export has them in its file.
    if (again.length > 0 && plan.op !== 'export') await this.quietly(() => this.act(ctx, again, null));
    if (fresh.length === 0) return null;
    // Exports are exact across a crash (the file is cut back to the checkpoint and the page read
    // again); other actions change what a second look at the page would see.
    if (plan.op !== 'export') {
      this.counts.inFlight = fresh.length;
      ctx.acting();
    }
    return this.act(ctx, fresh, next);
  }

  /** Acts on `keys` (the page's matched ones) and counts them once answered; see page(). */
  private async act(ctx: ShardContext, matched: Buffer[], next: Buffer | null): Promise<Reply[] | null> {
    const { plan } = ctx;
    if (plan.plain && plan.op === 'delete' && ctx.retry === null) return this.unlinkAll(ctx, matched, next);
    const mode = plan.op as ScriptMode;
    const { replies, after } = await this.round(ctx, matched, mode, (b, k) => plan.act(b, k), plan.plain ? next : null);
    this.matched(ctx, matched);
    const out = ctx.file === null ? null : new RespBuilder(256 * 1024);
    replies.forEach((r, i) => {
      if (r === 1) this.counts.acted++;
      else if (r === 0) this.counts.skipped++;
      else if (out !== null && Array.isArray(r) && typeof r[0] === 'number' && Buffer.isBuffer(r[1])) {
        ExportFile.restore(out, matched[i] as Buffer, r[0], r[1]);
        this.counts.acted++;
      } else this.failed(ctx, r);
    });
    if (out !== null && ctx.file !== null && out.size > 0) await ctx.file.write(out.take());
    return after;
  }

  private matched(ctx: ShardContext, keys: Buffer[]): void {
    if (this.quiet) return;
    this.counts.matched += keys.length;
    for (const k of keys) ctx.matched(this, k);
    if (!ctx.dryRun) ctx.counted(keys);
  }

  /** Runs `f` with its counts undone after (the errors it met are still sampled). */
  private async quietly(f: () => Promise<unknown>): Promise<void> {
    const { matched, acted, skipped, errors } = this.counts;
    this.quiet = true;
    try {
      await f();
    } finally {
      this.quiet = false;
      Object.assign(this.counts, { matched, acted, skipped, errors });
    }
  }

  /**
   * A delete without a filter on one server (no cluster: its keys' slots differ): UNLINK of up
   * to UNLINK_KEYS keys a command, each answering how many it removed; the rest were gone
   * already (skipped). Far fewer commands for the server to parse and answer than one a key.
   */
  private async unlinkAll(ctx: ShardContext, keys: Buffer[], next: Buffer | null): Promise<Reply[] | null> {
    const b = this.builder;
    let commands = 0;
    for (let i = 0; i < keys.length; i += UNLINK_KEYS) {
      const n = Math.min(UNLINK_KEYS, keys.length - i);
      b.command(1 + n).arg('UNLINK');
      for (let j = i; j < i + n; j++) b.argBytes(keys[j] as Buffer, 0, (keys[j] as Buffer).length);
      commands++;
    }
    if (next !== null) b.raw(next);
    const payload = b.take();
    const replies = await this.pipe.send(payload, commands + (next === null ? 0 : 1));
    this.builder.recycle(payload);
    this.matched(ctx, keys);
    for (let c = 0; c < commands; c++) {
      const n = Math.min(UNLINK_KEYS, keys.length - c * UNLINK_KEYS);
      const r = replies[c];
      if (typeof r === 'number' && r >= 0 && r <= n) {
        this.counts.acted += r;
        this.counts.skipped += n - r;
      } else for (let j = 0; j < n; j++) this.failed(ctx, r);
    }
    return next === null ? null : replies;
  }

  private failed(ctx: ShardContext, r: unknown): void {
    this.counts.errors++;
    ctx.error(r instanceof ReplyError ? r.message : r instanceof Error ? r.message : `unexpected reply ${JSON.stringify(r)}`);
  }

  /**
   * One pipelined round over `keys`: 1 or 0 for each, an export's [pttl, payload], or the error.
   * NOSCRIPT (a restart, SCRIPT FLUSH) loads the script and sends those keys again; MOVED and ASK
   * (a slot migrating), and the other answers of a failover's window (clusterRetry.ts), go
   * through the cluster client, which follows them and tries again a bounded number of times.
   */
  private async round(
    ctx: ShardContext,
    keys: Buffer[],
    mode: ScriptMode,
    build: (b: RespBuilder, k: Buffer) => void,
    next: Buffer | null = null,
  ): Promise<{ replies: unknown[]; after: Reply[] | null }> {
    for (const k of keys) build(this.builder, k);
    if (next !== null) this.builder.raw(next);
    const payload = this.builder.take();
    const replies: unknown[] = await this.pipe.send(payload, keys.length + (next === null ? 0 : 1));
    this.builder.recycle(payload);
    const after = next === null ? null : (replies.splice(keys.length) as Reply[]);
    const again = replies.flatMap((r, i) => (r instanceof ReplyError && r.message.startsWith('NOSCRIPT') ? [i] : []));
    if (again.length > 0) {
      await this.call(['SCRIPT', 'LOAD', ACTION_SCRIPT]);
      for (const i of again) build(this.builder, keys[i] as Buffer);
      const retried = await this.pipe.send(this.builder.take(), again.length);
      again.forEach((i, j) => (replies[i] = retried[j]));
    }
    for (let i = 0; i < replies.length; i++) {
      const r = replies[i];
      if (ctx.retry === null || !(r instanceof ReplyError) || !inFailoverWindow(r.message)) continue;
      replies[i] = await ctx.retry(mode, keys[i] as Buffer).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    }
    return { replies, after };
  }

  async close(): Promise<void> {
    await this.pacer.close().catch(() => undefined);
    await this.pipe.close().catch(() => this.pipe.destroy());
  }

  destroy(): void {
    void this.pacer.close().catch(() => undefined);
    this.pipe.destroy();
  }
}

/** `keys` split into those not counted before (added to `seen` now) and those counted already. */
function split(seen: KeyHashSet | null, keys: Buffer[]): { fresh: Buffer[]; again: Buffer[] } {
  if (seen === null) return { fresh: keys, again: [] };
  const fresh: Buffer[] = [];
  const again: Buffer[] = [];
  for (const k of keys) (seen.add(k, 0, k.length) ? fresh : again).push(k);
  return { fresh, again };
}

/**
 * How much of the hash table a SCAN cursor has walked. Redis walks the buckets in reversed-bit
 * order: the cursor's bits read backwards count the buckets done, so reversed as a 64-bit number
 * over 2^64 it is the share walked, whatever the table's size.
 */
export function cursorFraction(cursor: string): number {
  let v = BigInt(cursor);
  let r = 0n;
  for (let i = 0; i < 64; i++) {
    r = (r << 1n) | (v & 1n);
    v >>= 1n;
  }
  return Number(r) / 2 ** 64;
}
