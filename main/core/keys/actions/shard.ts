import type { Pace } from '../../../../app/schemas/keyActions';
import { RespBuilder } from '../../resp/respBuilder';
import { RespPipe } from '../../resp/respPipe';
import type { RawTarget } from '../../resp/rawTarget';
import { ReplyError, type Reply } from '../../resp/replyReader';
import { encodeCommand } from '../../resp/encodeCommand';
import { ScanConnection } from '../index/scanConnection';
import { startPacer, type Pacer } from '../pace/pacer';
import type { ActionPlan } from './actionPlan';
import { ACTION_SCRIPT, type ScriptMode } from './actionScript';
import type { ShardCheckpoint } from './checkpoints';
import { ExportFile } from './exportFile';

const CLOSED_NOTE = 'during a bulk key action; the counts say what was done, and the run can be resumed.';

/** What a shard's run shares with the others. */
export interface ShardContext {
  plan: ActionPlan;
  dryRun: boolean;
  /** Aborted by a cancel or another shard's failure: the page being acted on finishes, then the shard stops. */
  stop: AbortSignal;
  file: ExportFile | null;
  /** A cluster: send one key's script through the cluster client, which follows MOVED and ASK. */
  retry: ((mode: ScriptMode, key: Buffer) => Promise<unknown>) | null;
  matched(shard: Shard, key: Buffer): void;
  error(message: string): void;
  /** After each page is done (counts and cursor updated). */
  paged(): void;
  /** Tests: between the check round and the act round of each page with matches. */
  beforeAct?: (keys: Buffer[]) => Promise<void>;
}

/**
 * One shard of a run (a cluster master, or the one server): its SCAN connection (replies read
 * in place), its action pipe, its pacer, and its counts and cursor. Memory per shard is one
 * page: the keys of the last SCAN reply and their commands.
 */
export class Shard {
  /** DBSIZE when this part of the run began. */
  dbsize = 0;
  /** The share of the hash table the SCAN has walked, from the cursor's reversed bits. */
  fraction = 0;
  private readonly builder = new RespBuilder(256 * 1024);

  private constructor(
    readonly counts: ShardCheckpoint,
    private readonly scan: ScanConnection,
    private readonly pipe: RespPipe,
    private readonly pacer: Pacer,
  ) {}

  static async open(target: RawTarget, from: ShardCheckpoint, pace: Pace, stop: AbortSignal): Promise<Shard> {
    const scanConn = await target.connect();
    let pipeConn;
    try {
      pipeConn = await target.connect();
    } catch (e) {
      scanConn.destroy();
      throw e;
    }
    const scan = new ScanConnection(scanConn, target.errorContext, CLOSED_NOTE);
    const pipe = new RespPipe(pipeConn, target.errorContext, CLOSED_NOTE);
    let pacer: Pacer;
    try {
      pacer = await startPacer(target, pace, stop);
    } catch (e) {
      scan.destroy();
      pipe.destroy();
      throw e;
    }
    const shard = new Shard({ ...from }, scan, pipe, pacer);
    shard.fraction = from.done ? 1 : cursorFraction(from.cursor);
    return shard;
  }

  get node(): string {
    return this.counts.node;
  }

  /** Keys walked: the walked share of DBSIZE (exact once done). */
  get scanned(): number {
    return this.counts.done ? Math.max(this.counts.scanned, this.dbsize) : Math.round(this.fraction * this.dbsize);
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

  /** The server's major version (INFO server), 0 when unreadable. */
  async majorVersion(): Promise<number> {
    const info = await this.call(['INFO', 'server']).catch(() => null);
    const m = /redis_version:(\d+)/.exec(Buffer.isBuffer(info) ? info.toString('latin1') : '');
    return m === null ? 0 : Number(m[1]);
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
   * acted on to its end, so the cursor saved after it and the counts agree exactly. The next
   * SCAN goes out only once this page is acted on: deletes shrink the table, and a SCAN across
   * a shrink can return a key of the page before again; sent after that page's UNLINKs, it no
   * longer finds those keys, so no key is counted twice.
   */
  async run(ctx: ShardContext): Promise<void> {
    const match = Buffer.from(ctx.plan.selection.match, 'base64');
    while (!this.counts.done) {
      try {
        await this.pacer.gate(ctx.stop);
      } catch {
        return;
      }
      if (ctx.stop.aborted) return;
      const reply = await this.scan.send(this.counts.cursor, this.pacer.batchSize(), match);
      const keys: Buffer[] = [];
      reply.visit((buf, start, end) => keys.push(Buffer.from(buf.subarray(start, end))));
      await this.page(ctx, keys);
      this.counts.cursor = reply.cursor;
      this.counts.done = reply.cursor === '0';
      this.fraction = this.counts.done ? 1 : cursorFraction(reply.cursor);
      this.counts.scanned = this.scanned;
      ctx.paged();
    }
  }

  private async page(ctx: ShardContext, keys: Buffer[]): Promise<void> {
    if (keys.length === 0) return;
    const { plan } = ctx;
    let matched = keys;
    if (plan.filtered) {
      const checks = await this.round(ctx, keys, 'check', (b, k) => plan.check(b, k));
      matched = keys.filter((_, i) => checks[i] === 1);
      for (const r of checks) if (r !== 1 && r !== 0) this.failed(ctx, r);
    }
    this.counts.matched += matched.length;
    for (const k of matched) ctx.matched(this, k);
    if (ctx.dryRun || matched.length === 0) return;
    await ctx.beforeAct?.(matched);
    const mode = plan.op as ScriptMode;
    const replies = await this.round(ctx, matched, mode, (b, k) => plan.act(b, k));
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
  }

  private failed(ctx: ShardContext, r: unknown): void {
    this.counts.errors++;
    ctx.error(r instanceof ReplyError ? r.message : r instanceof Error ? r.message : `unexpected reply ${JSON.stringify(r)}`);
  }

  /**
   * One pipelined round over `keys`: 1 or 0 for each, an export's [pttl, payload], or the error.
   * NOSCRIPT (a restart, SCRIPT FLUSH) loads the script and sends those keys again; MOVED and ASK
   * (a slot migrating) go through the cluster client, which follows them.
   */
  private async round(ctx: ShardContext, keys: Buffer[], mode: ScriptMode, build: (b: RespBuilder, k: Buffer) => void): Promise<unknown[]> {
    for (const k of keys) build(this.builder, k);
    const payload = this.builder.take();
    const replies: unknown[] = await this.pipe.send(payload, keys.length);
    this.builder.recycle(payload);
    const again = replies.flatMap((r, i) => (r instanceof ReplyError && r.message.startsWith('NOSCRIPT') ? [i] : []));
    if (again.length > 0) {
      await this.call(['SCRIPT', 'LOAD', ACTION_SCRIPT]);
      for (const i of again) build(this.builder, keys[i] as Buffer);
      const retried = await this.pipe.send(this.builder.take(), again.length);
      again.forEach((i, j) => (replies[i] = retried[j]));
    }
    for (let i = 0; i < replies.length; i++) {
      const r = replies[i];
      if (ctx.retry === null || !(r instanceof ReplyError) || !/^(MOVED|ASK) /.test(r.message)) continue;
      replies[i] = await ctx.retry(mode, keys[i] as Buffer).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    }
    return replies;
  }

  async close(): Promise<void> {
    await this.pacer.close().catch(() => undefined);
    await Promise.all([this.scan.close().catch(() => this.scan.destroy()), this.pipe.close().catch(() => this.pipe.destroy())]);
  }

  destroy(): void {
    void this.pacer.close().catch(() => undefined);
    this.scan.destroy();
    this.pipe.destroy();
  }
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
