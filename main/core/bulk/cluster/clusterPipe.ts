import type { LoadReport } from '../../../../app/schemas/bulk';
import type { MasterNode } from '../../pool/types';
import { LoadFailed } from '../job/loadFailure';
import { Condition } from '../../resp/condition';
import { encodeCommand } from '../../resp/encodeCommand';
import { KEPT_ERRORS, PROGRESS_EVERY_MS } from '../../resp/pipeWriter';
import { PipeStopped, stopMessage } from '../../resp/pipeStopped';
import type { RawConnection } from '../../resp/rawConnection';
import type { CommandBatch, LoadErrorEntry, PipeProgress, PipeResult } from '../../resp/types';
import { CommandSlots, NO_SLOT, SlotRefusal } from './commandSlot';
import { NodePipe, type NodeBatch, type SentCommand } from './nodePipe';
import { parseRedirect } from './redirect';
import { SlotMap } from './slotMap';

export type NodeReport = NonNullable<LoadReport['nodes']>[number];
export type RedirectCounts = NonNullable<LoadReport['redirects']>;

export interface ClusterPipeOptions {
  file: string;
  maxErrors: number;
  signal: AbortSignal;
  /** The masters now (CLUSTER NODES): asked again after a MOVED. */
  masters(): Promise<MasterNode[]>;
  /** A raw pipe connection to one master, already on DB 0. */
  connect(address: string): Promise<RawConnection>;
  onProgress?(p: PipeProgress): void;
  maxInFlightCommands?: number;
}

export interface ClusterResult extends PipeResult {
  nodes: NodeReport[];
  redirects: RedirectCounts;
}

interface Pending {
  command: SentCommand;
  kind: 'moved' | 'ask' | 'tryagain';
  /** moved, ask: where to send it; tryagain: the node that answered. */
  address: string;
  /** moved: the slot the reply named. */
  slot: number;
}

/** Batches a master may have queued before the reader waits: the slowest master sets the pace. */
const QUEUED_BATCHES = 4;
/** Redirect rounds at one barrier before the load gives up: a slot map that never settles. */
const MAX_ROUNDS = 50;
/** TRYAGAIN: the migration of the slot has to move on first. */
const TRYAGAIN_DELAY_MS = 50;
const ASKING = encodeCommand(['ASKING']);
/**
 * Per master: the single pipe's 250k spread over three masters. Enough to keep
 * each server busy; more only holds more batches (RSS) for the same rate.
 */
const IN_FLIGHT_PER_MASTER = 100_000;

/**
 * A bulk load into a Redis Cluster: every command goes to the master serving
 * its key's slot, on one raw-RESP pipe per master. Commands for one slot go
 * down one pipe in input order, so each key sees its writes in file order.
 *
 * Redirects are never resent blindly. A MOVED, ASK or TRYAGAIN reply is set
 * aside with the exact bytes of the command it answers; the reader then stops
 * (a barrier), waits until every command sent is answered, refreshes the slot
 * map, resends the set-aside commands in input order (ASK: ASKING first, to
 * the node it names) and only then goes on. Nothing newer can overtake a
 * resent command, so the final state is the one sequential execution gives.
 */
export class ClusterPipe {
  private readonly map = new SlotMap();
  private readonly pipes: (NodePipe | undefined)[] = [];
  private readonly slots = new CommandSlots();
  private readonly started = performance.now();
  private pending: Pending[] = [];
  private readonly redirects: RedirectCounts = { moved: 0, ask: 0, tryagain: 0 };
  private readonly firstErrors: LoadErrorEntry[] = [];
  private errors = 0;
  private seq = 0;
  private records = 0;
  private bytesRead = 0;
  private fatal: unknown;
  private tooManyErrors = false;
  private readonly condition = new Condition();
  /** Scratch per command of the batch being split. */
  private owners = new Int32Array(4096);
  private starts = new Uint32Array(4097);

  constructor(private readonly opts: ClusterPipeOptions) {}

  async run(batches: AsyncIterable<CommandBatch>, masters: MasterNode[]): Promise<ClusterResult> {
    this.map.assign(masters);
    const ticker = setInterval(() => this.opts.onProgress?.(this.progress()), PROGRESS_EVERY_MS);
    let sourceError: { err: unknown } | undefined;
    try {
      await this.openServing();
      try {
        for await (const batch of batches) {
          if (!this.stopped()) await this.settle();
          if (this.stopped()) {
            batch.release?.();
            break;
          }
          this.dispatch(batch);
          await this.waitFor(() => this.pipes.every((p) => p === undefined || p.queued <= QUEUED_BATCHES));
        }
      } catch (err) {
        if (this.fatal === undefined) sourceError = { err };
      }
      // The last commands may still be redirected: wait for every reply before the final resends.
      await this.waitFor(() => this.idle());
      if (!this.stopped()) await this.settle();
    } catch (err) {
      this.fatal ??= err;
    } finally {
      clearInterval(ticker);
      for (const p of this.pipes) p?.end();
      const ended = await Promise.allSettled(this.pipes.map((p) => p?.result));
      // Every command of a pipe that resolved is answered: close it (a failed one is destroyed already).
      await Promise.all(this.pipes.map((p, i) => (p !== undefined && ended[i]?.status === 'fulfilled' ? p.conn.close() : undefined)));
    }
    this.opts.onProgress?.(this.progress());
    const result = this.result();
    if (sourceError !== undefined) throw sourceError.err;
    if (this.fatal !== undefined) throw this.withCounts(this.fatal, result);
    if (this.tooManyErrors) throw new PipeStopped('errors', stopMessage('errors', result, 'the cluster', this.opts.maxErrors), result);
    return result;
  }

  /** Per-master counts so far (also after a failure). */
  nodes(): NodeReport[] {
    return this.pipes.flatMap((p) =>
      p === undefined ? [] : [{ address: p.address, commands: p.sent - p.asking, errors: p.errors, redirected: p.redirected }],
    );
  }

  // ---- routing --------------------------------------------------------------

  /** Split one source batch by slot owner and queue each part on its master's pipe. */
  private dispatch(batch: CommandBatch): void {
    const n = batch.count;
    if (this.owners.length < n) {
      this.owners = new Int32Array(n * 2);
      this.starts = new Uint32Array(n * 2 + 1);
    }
    const { owners, starts, slots } = this;
    const keyless = this.map.indexOf(this.map.serving()[0] ?? '');
    let refusal: LoadFailed | undefined;
    let count = n;
    let pos = 0;
    for (let i = 0; i < n; i++) {
      starts[i] = pos;
      let slot: number;
      try {
        slot = slots.read(batch.resp, pos);
      } catch (err) {
        if (!(err instanceof SlotRefusal)) throw err;
        refusal = new LoadFailed('VALIDATION', `${this.opts.file}:${batch.lines[i] ?? 0}: ${err.message}`);
        count = i;
        break;
      }
      owners[i] = slot === NO_SLOT ? keyless : this.map.ownerOf(slot);
      pos = slots.end;
    }
    starts[count] = pos;
    // Two passes: sizes per master, then one copy of each command into its master's batch.
    const parts = new Map<number, { batch: NodeBatch; k: number; at: number }>();
    const sizes = new Map<number, { bytes: number; count: number }>();
    for (let i = 0; i < count; i++) {
      const o = owners[i] as number;
      const size = sizes.get(o) ?? { bytes: 0, count: 0 };
      size.bytes += (starts[i + 1] as number) - (starts[i] as number);
      size.count++;
      sizes.set(o, size);
    }
    for (const [o, size] of sizes) parts.set(o, { batch: emptyBatch(size.bytes, size.count), k: 0, at: 0 });
    for (let i = 0; i < count; i++) {
      const part = parts.get(owners[i] as number) as { batch: NodeBatch; k: number; at: number };
      const { batch: b, k } = part;
      b.offsets[k] = part.at;
      b.lines[k] = batch.lines[i] ?? 0;
      b.seqs[k] = this.seq + i;
      part.at += batch.resp.copy(b.resp, part.at, starts[i], starts[i + 1]);
      part.k = k + 1;
    }
    for (const [o, part] of parts) {
      part.batch.offsets[part.k] = part.at;
      this.pipeAt(o).push(part.batch);
    }
    this.seq += n;
    this.records = batch.records;
    this.bytesRead = batch.bytesRead;
    batch.release?.();
    if (refusal !== undefined) throw refusal;
  }

  private pipeAt(owner: number): NodePipe {
    const pipe = this.pipes[owner];
    if (pipe === undefined) throw new Error(`no pipe open to ${this.map.addresses[owner] ?? owner}`);
    return pipe;
  }

  /** Open a pipe to every master serving slots that has none yet. */
  private async openServing(extra: string[] = []): Promise<void> {
    const wanted = [...new Set([...this.map.serving(), ...extra])];
    await Promise.all(wanted.map((address) => this.open(address)));
  }

  private async open(address: string): Promise<void> {
    const index = this.map.indexOf(address);
    if (this.pipes[index] !== undefined) return;
    const conn = await this.opts.connect(address);
    if (this.pipes[index] !== undefined) {
      conn.destroy();
      return;
    }
    const pipe = new NodePipe(
      address,
      conn,
      { file: this.opts.file, signal: this.opts.signal, maxInFlightCommands: this.opts.maxInFlightCommands ?? IN_FLIGHT_PER_MASTER },
      {
        onError: (p, command, message, asking) => this.onError(p, command, message, asking),
        onChange: () => this.condition.check(),
      },
    );
    this.pipes[index] = pipe;
    pipe.result.catch((err: unknown) => {
      this.fatal ??= err;
      // One master lost: stop feeding the others, and let them answer what they have.
      for (const p of this.pipes) p?.end();
      this.condition.check();
    });
  }

  // ---- replies ----------------------------------------------------------------

  private onError(pipe: NodePipe, command: SentCommand, message: string, asking: boolean): void {
    const redirect = asking ? undefined : parseRedirect(message);
    if (redirect !== undefined) {
      pipe.redirected++;
      this.redirects[redirect.kind]++;
      const address = redirect.kind === 'tryagain' ? pipe.address : redirect.address;
      if (redirect.kind === 'moved') this.map.move(redirect.slot, redirect.address);
      this.pending.push({ command, kind: redirect.kind, address, slot: redirect.kind === 'tryagain' ? -1 : redirect.slot });
      return;
    }
    pipe.errors++;
    this.errors++;
    if (this.firstErrors.length < KEPT_ERRORS) {
      this.firstErrors.push({ position: `${this.opts.file}:${command.line}`, message: `${message} (${pipe.address})` });
    }
    if (this.errors > this.opts.maxErrors && !this.tooManyErrors) {
      // Stop feeding the pipes; what they have in flight is still answered, so the counts are exact.
      this.tooManyErrors = true;
      this.condition.check();
    }
  }

  /**
   * The barrier: with redirects set aside, wait until every master has
   * answered everything, then resend them in input order, until none is left.
   */
  private async settle(): Promise<void> {
    for (let round = 0; this.pending.length > 0; round++) {
      await this.waitFor(() => this.idle());
      if (this.stopped()) return;
      if (round >= MAX_ROUNDS) {
        throw new LoadFailed('REDIS', `The cluster kept redirecting ${this.pending.length} commands after ${MAX_ROUNDS} resends: its slot map does not settle`);
      }
      const pending = this.pending.sort((a, b) => a.command.seq - b.command.seq);
      this.pending = [];
      if (pending.some((p) => p.kind === 'moved')) await this.refreshMap(pending);
      if (pending.some((p) => p.kind === 'tryagain')) await new Promise((r) => setTimeout(r, TRYAGAIN_DELAY_MS));
      await this.openServing(pending.map((p) => p.address));
      const byTarget = new Map<string, Pending[]>();
      for (const p of pending) {
        const list = byTarget.get(p.address) ?? [];
        list.push(p);
        byTarget.set(p.address, list);
      }
      for (const [address, list] of byTarget) this.pipeAt(this.map.indexOf(address)).push(resendBatch(list));
      // A resend may be redirected again (ASK, then MOVED once the migration ends): collect that before deciding.
      await this.waitFor(() => this.idle());
    }
  }

  private idle(): boolean {
    return this.pipes.every((p) => p === undefined || p.idle);
  }

  /** A MOVED means the map is stale: read it again, then keep what the MOVED replies said. */
  private async refreshMap(pending: Pending[]): Promise<void> {
    this.map.assign(await this.opts.masters());
    for (const p of pending) if (p.kind === 'moved') this.map.move(p.slot, p.address);
  }

  // ---- bookkeeping -----------------------------------------------------------

  private stopped(): boolean {
    return this.fatal !== undefined || this.tooManyErrors || this.opts.signal.aborted;
  }

  private waitFor(cond: () => boolean): Promise<void> {
    return this.condition.until(() => this.stopped() || cond());
  }

  private progress(): PipeProgress {
    let sent = 0;
    let replies = 0;
    let extra = 0;
    for (const p of this.pipes) {
      if (p === undefined) continue;
      sent += p.sent;
      replies += p.replies;
      extra += p.asking + p.redirected;
    }
    return {
      records: this.records,
      commands: Math.max(0, sent - extra),
      replies: Math.max(0, replies - extra),
      errors: this.errors,
      bytesRead: this.bytesRead,
    };
  }

  private result(): ClusterResult {
    return {
      ...this.progress(),
      firstErrors: [...this.firstErrors],
      seconds: (performance.now() - this.started) / 1000,
      nodes: this.nodes(),
      redirects: { ...this.redirects },
    };
  }

  /** A pipe's stop carries that master's counts; the load's report wants the cluster's. */
  private withCounts(err: unknown, result: ClusterResult): unknown {
    if (!(err instanceof PipeStopped)) return err;
    return new PipeStopped(err.stoppedBy, err.message, result);
  }
}

function emptyBatch(bytes: number, count: number): NodeBatch {
  return {
    resp: Buffer.allocUnsafe(bytes),
    count,
    lines: new Uint32Array(count),
    seqs: new Float64Array(count),
    offsets: new Uint32Array(count + 1),
    records: 0,
    bytesRead: 0,
  };
}

function nodeBatch(parts: Buffer[], lines: number[], seqs: number[], asking?: number[]): NodeBatch {
  const offsets = new Uint32Array(parts.length + 1);
  let size = 0;
  for (let i = 0; i < parts.length; i++) {
    offsets[i] = size;
    size += (parts[i] as Buffer).length;
  }
  offsets[parts.length] = size;
  const batch: NodeBatch = {
    resp: Buffer.concat(parts, size),
    count: parts.length,
    lines: Uint32Array.from(lines),
    seqs: Float64Array.from(seqs),
    offsets,
    records: 0,
    bytesRead: 0,
  };
  if (asking !== undefined) batch.asking = Uint8Array.from(asking);
  return batch;
}

/** Resent commands for one node, in input order; each ASK-redirected one after an ASKING. */
function resendBatch(list: Pending[]): NodeBatch {
  const parts: Buffer[] = [];
  const lines: number[] = [];
  const seqs: number[] = [];
  const asking: number[] = [];
  for (const p of list) {
    if (p.kind === 'ask') {
      parts.push(ASKING);
      lines.push(p.command.line);
      seqs.push(p.command.seq);
      asking.push(1);
    }
    parts.push(p.command.bytes);
    lines.push(p.command.line);
    seqs.push(p.command.seq);
    asking.push(0);
  }
  return nodeBatch(parts, lines, seqs, asking);
}
