import { restrictionLine } from '../../../../app/schemas/restrictions';
import { hostname } from 'node:os';
import type { StreamEvent } from '../../../../app/contract';
import { AppError } from '../../../../app/errors';
import type { KeyActionCounts, KeyActionReport, KeySelection, Pace } from '../../../../app/schemas/keyActions';
import type { RawTarget } from '../../resp/rawTarget';
import { commandInfoHas, FIELD_TTLS_COMMAND } from '../../pool/commandSupport';
import { estimate } from '../index/folderStats';
import { keyRef } from '../keyRef';
import { ActionPlan, type RunAction } from './actionPlan';
import { ACTION_SCRIPT, type ScriptMode } from './actionScript';
import type { FinalActionEvent } from './actionJobs';
import type { Checkpoint, CheckpointStore, ShardCheckpoint } from './checkpoints';
import { ExportFile } from './exportFile';
import { SeenKeysFile } from './seenKeys';
import { KeyHashSet } from '../../resp/keyHashSet';
import { Shard, type ShardContext } from './shard';
import { testPause, testPauseArmed } from '../../jobs/testPause';

type ActionEvent = StreamEvent<'keys.actions.progress'>;

/** Names shown in a dry run's preview, and keys kept for its memory estimate (a uniform reservoir). */
const SAMPLE_NAMES = 20;
const MEMORY_SAMPLE = 200;
const ERROR_SAMPLES = 5;
const CHECKPOINT_MS = 1_000;

export interface KeyActionRun {
  runId: string;
  profileId: string;
  /** Where it acts ("profile/db", or the CLI's address/db): a resume must name the same. */
  target: string;
  db: number;
  /** Each master's raw connection maker: a cluster's masters, or the one server. */
  targets: RawTarget[];
  selection: KeySelection;
  action: RunAction;
  pace: Pace;
  dryRun: boolean;
  /** Where a real run checkpoints (null: nowhere, e.g. tests of the engine alone). */
  store: CheckpointStore | null;
  /** Continue this cut run: its shards' cursors and counts. */
  resume?: Checkpoint;
  /** Export: the file to write. */
  out?: string;
  /** A cluster: one key's script through the cluster client (follows MOVED/ASK). */
  retry?: (key: Buffer, args: string[]) => Promise<unknown>;
  progressMs?: number;
  /** Tests: runs between a page's check round and its act round. */
  beforeAct?: (keys: Buffer[]) => Promise<void>;
}

const address = (t: RawTarget): string => `${t.errorContext.host ?? '?'}:${t.errorContext.port ?? 0}`;

const fresh = (node: string): ShardCheckpoint => ({
  node,
  cursor: '0',
  scanned: 0,
  matched: 0,
  acted: 0,
  skipped: 0,
  errors: 0,
  done: false,
  short: 0,
  inFlight: 0,
});

/**
 * A bulk key action over every shard at once (parallel SCAN MATCH, pipelined check and act,
 * each paced by its own pacer), with progress at most every `progressMs`, a checkpoint every
 * second (real runs), and a report whatever the ending. Memory does not grow with the keys:
 * counts, 20 names, a 200-key reservoir for the memory estimate, and a page per shard.
 */
export async function runKeyActions(run: KeyActionRun, emit: (e: ActionEvent) => void, signal: AbortSignal): Promise<FinalActionEvent> {
  const began = Date.now();
  const prior = run.resume;
  const priorSeconds = prior?.seconds ?? 0;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort);
  const shards: Shard[] = [];
  const notes: string[] = [];
  const errorSamples: string[] = [...(prior?.errorSamples ?? [])];
  const samples: Buffer[] = [];
  const reservoir: { shard: Shard; key: Buffer }[] = [];
  let seen = 0;
  let plan: ActionPlan | null = null;
  let file: ExportFile | null = null;
  let failure: AppError | null = null;
  let scannedAtStart = 0;
  let lastSave = 0;
  /** A checkpoint was written: from then on an ending leaves a resumable one (a run refused before that leaves nothing). */
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const real = !run.dryRun;
  /** The keys this run counted (a real run with a store), and their set once a shard must start over. */
  const seenFile =
    real && run.store !== null ? new SeenKeysFile(run.store.seenFile(run.runId), prior === undefined ? undefined : (prior.seenBytes ?? 0)) : null;
  let seenSet: KeyHashSet | undefined;

  const counts = (): KeyActionCounts => {
    const list = shards.map((s) => ({ ...s.counts, scanned: s.scanned }));
    const sum = (f: (s: ShardCheckpoint) => number) => list.reduce((a, s) => a + f(s), 0);
    return {
      scanned: sum((s) => s.scanned),
      total: shards.reduce((a, s) => a + s.dbsize, 0),
      matched: sum((s) => s.matched),
      acted: sum((s) => s.acted),
      skipped: sum((s) => s.skipped),
      errors: sum((s) => s.errors),
      short: sum((s) => s.short ?? 0),
      seconds: round(priorSeconds + (Date.now() - began) / 1000),
      shards: list.map(({ cursor: _cursor, server: _server, dbsize: _dbsize, inFlight: _inFlight, ...c }) => c),
    };
  };
  /** `durable` false: the write-ahead checkpoint before a page's actions (ShardContext.acting). */
  const checkpoint = (state: Checkpoint['state'], durable = true): void => {
    if (!real || run.store === null) return;
    lastSave = Date.now();
    const c = counts();
    run.store.save(
      {
        version: 1,
        runId: run.runId,
        profileId: run.profileId,
        target: run.target,
        db: run.db,
        op: run.action.op,
        selection: run.selection,
        action: run.action,
        pace: run.pace,
        startedAt: prior?.startedAt ?? began,
        updatedAt: lastSave,
        seconds: c.seconds,
        total: c.total,
        state,
        pid: process.pid,
        host: hostname(),
        shards: shards.map((s) => ({ ...s.counts, scanned: s.scanned, dbsize: s.dbsize })),
        errorSamples,
        ...(seenFile === null ? {} : { seenBytes: seenFile.bytes }),
        ...(file === null ? {} : { export: { out: file.out, tmp: file.tmp, bytes: file.bytes } }),
      },
      durable,
    );
    if (file !== null && file.bytes > 0) testPause('export-saved');
  };
  const progress = (): void => {
    const c = counts();
    const secs = (Date.now() - began) / 1000;
    const rate = secs > 0 ? (c.scanned - scannedAtStart) / secs : 0;
    const paused = shards.map((s) => s.paused).find((p) => p !== null) ?? null;
    emit({ kind: 'progress', counts: c, rate: Math.round(rate), etaSeconds: rate > 0 ? Math.max(0, (c.total - c.scanned) / rate) : null, paused });
  };
  const report = (): KeyActionReport => ({
    ...counts(),
    runId: run.runId,
    op: run.action.op,
    dryRun: run.dryRun,
    samples: samples.map(keyRef),
    memory: null,
    errorSamples,
    file: file?.out ?? null,
    notes,
  });

  try {
    const starts = run.targets.map((t) => startAt(run, t));
    for (const [i, t] of run.targets.entries()) shards.push(await Shard.open(t, (starts[i] as ShardStart).from, run.pace, stop.signal));
    await prepare(run, shards);
    await placeShards(shards, starts, notes, () => (seenSet ??= seenFile?.load() ?? new KeyHashSet()));
    const versions = await Promise.all(shards.map((s) => s.majorVersion()));
    // Any master with hash-field expiration turns the check on: on a cluster mid-upgrade an older
    // master's hashes then fail the check (errors, left alone) rather than skip their fields.
    const fieldTtls = await Promise.all(shards.map((s) => s.call(['COMMAND', 'INFO', FIELD_TTLS_COMMAND]).then(commandInfoHas, () => false)));
    plan = new ActionPlan(
      run.selection,
      run.action,
      versions.every((v) => v >= 7),
      fieldTtls.some(Boolean),
    );
    scannedAtStart = counts().scanned;
    if (run.action.op === 'export' && real) {
      if (run.out === undefined) throw new AppError('VALIDATION', 'an export needs a file to write (--out)', 'out');
      file = await ExportFile.open(run.out, prior?.export);
    }
    checkpoint('running');
    started = true;
    progress();
    timer = setInterval(progress, run.progressMs ?? 200);
    const retry = run.retry;
    const ctx: ShardContext = {
      plan,
      dryRun: run.dryRun,
      stop: stop.signal,
      file,
      retry: retry === undefined || plan === null ? null : (mode: ScriptMode, key: Buffer) => retry(key, (plan as ActionPlan).scriptArgs(mode, key)),
      // `key` is a view into a socket chunk: the few kept are copied, so they pin no chunk.
      matched: (shard, key) => {
        if (samples.length < SAMPLE_NAMES) samples.push(Buffer.from(key));
        if (!run.dryRun) return;
        seen++;
        if (reservoir.length < MEMORY_SAMPLE) reservoir.push({ shard, key: Buffer.from(key) });
        else {
          const j = Math.floor(Math.random() * seen);
          if (j < MEMORY_SAMPLE) reservoir[j] = { shard, key: Buffer.from(key) };
        }
      },
      error: (m) => {
        if (errorSamples.length < ERROR_SAMPLES && !errorSamples.includes(m)) errorSamples.push(m);
      },
      paged: () => {
        // A test's pause point wants a checkpoint holding part of the file (testPause.ts).
        if (Date.now() - lastSave >= CHECKPOINT_MS || (file !== null && file.bytes > 0 && testPauseArmed('export-saved'))) checkpoint('running');
      },
      acting: () => checkpoint('running', false),
      counted: (keys) => seenFile?.append(keys),
      ...(run.beforeAct === undefined ? {} : { beforeAct: run.beforeAct }),
    };
    await Promise.all(
      shards.map((s) =>
        s.run(ctx).catch((e: unknown) => {
          failure ??= asAppError(e);
          stop.abort();
        }),
      ),
    );
    clearInterval(timer);
    if (failure !== null) throw failure;
    const r = report();
    if (run.dryRun && !signal.aborted) r.memory = await memoryEstimate(reservoir, r.matched);
    if (signal.aborted) {
      checkpoint('cut');
      await file?.close();
      return { kind: 'cancelled', report: { ...r, seconds: counts().seconds } };
    }
    await file?.finish();
    if (real) run.store?.remove(run.runId);
    return { kind: 'done', report: { ...r, seconds: counts().seconds } };
  } catch (e) {
    clearInterval(timer);
    const err = asAppError(e);
    // A run that got going is cut, not lost: its checkpoint says where each shard stands. One
    // refused before its first checkpoint (a bad --out, an LFU policy) leaves nothing to resume.
    if (started) checkpoint('cut');
    await (started ? file?.close() : file?.discard());
    const error = { code: err.code, message: err.message };
    // A new run refused before it began did nothing and leaves nothing to resume, so no report
    // (which offers a resume). A resume keeps its checkpoint, and its report offers it again.
    return started || prior !== undefined ? { kind: 'failed', error, report: report() } : { kind: 'failed', error };
  } finally {
    signal.removeEventListener('abort', onAbort);
    seenFile?.close();
    await Promise.all(shards.map((s) => s.close().catch(() => s.destroy())));
  }
}

/** Where a shard starts: its checkpoint on resume (`prior`; `moved`: the node it was on, when another took its place), else cursor 0. */
interface ShardStart {
  from: ShardCheckpoint;
  prior: boolean;
  moved: string | null;
}

function startAt(run: KeyActionRun, t: RawTarget): ShardStart {
  const node = address(t);
  const prior = run.resume;
  if (prior === undefined) return { from: fresh(node), prior: false, moved: null };
  const same = prior.shards.find((s) => s.node === node);
  if (same !== undefined) return { from: same, prior: true, moved: null };
  const [only] = prior.shards;
  // A sentinel failover: the new master holds the same keys (placeShards starts its SCAN over).
  if (run.targets.length === 1 && prior.shards.length === 1 && only !== undefined) return { from: { ...only, node }, prior: true, moved: only.node };
  throw new AppError(
    'CONFLICT',
    `The masters changed since the run was cut (${node} was not one of them): a SCAN cursor only means something on its own node. Start a new run.`,
    'resume',
  );
}

/**
 * Each shard's walk, once its server is known: a resumed shard whose part before died with a
 * page's actions out counts that page as possibly short; one now on another server process (a
 * restart, a failover) starts its SCAN over, not counting again the keys counted before
 * (`seen`, read once). DBSIZE is the new walk's, else the first part's.
 */
async function placeShards(shards: Shard[], starts: ShardStart[], notes: string[], seen: () => KeyHashSet): Promise<void> {
  for (const [i, s] of shards.entries()) {
    const { prior, moved } = starts[i] as ShardStart;
    const id = await s.serverId();
    const c = s.counts;
    if (prior && c.inFlight > 0) {
      notes.push(
        `The part of this run before stopped while acting on ${c.inFlight} keys on ${moved ?? s.node} (its process or the server was killed): what it did to them went uncounted, so matched and acted may be up to ${c.inFlight} low.`,
      );
      c.short += c.inFlight;
      c.inFlight = 0;
    }
    if (id === undefined && !notes.some((n) => n.startsWith('INFO '))) {
      notes.push(
        restrictionLine({
          command: 'INFO',
          effect: 'a server restarted or replaced mid-run is not noticed, so a resumed run does not start its SCAN over there',
        }),
      );
    }
    const restarted = prior && moved === null && c.server !== undefined && id !== undefined && c.server !== id;
    if (moved !== null || restarted) {
      s.startOver(seen());
      notes.push(
        moved !== null
          ? `The master changed since the run was cut (${moved} → ${s.node}): a SCAN cursor only means something to its own server, so the SCAN started again from the beginning. Keys counted before were acted on again where they were back, and not counted twice.`
          : `${s.node} is another server process than when the run was cut (it restarted, or a replica took its place): a SCAN cursor only means something to the process that gave it, so its SCAN started again from the beginning. Keys counted before were acted on again where they were back (a restart from an older snapshot brings deleted keys back), and not counted twice.`,
      );
    }
    if (id === undefined) delete c.server;
    else c.server = id;
    const dbsize = Number(await s.call(['DBSIZE']));
    s.dbsize = prior && moved === null && !restarted && c.dbsize !== undefined ? Math.max(c.dbsize, 0) : dbsize;
  }
}

/** Checks before any key is touched: the idle filter needs an LRU (or no) eviction policy, and the script must be loaded. */
async function prepare(run: KeyActionRun, shards: Shard[]): Promise<void> {
  if (run.resume !== undefined) {
    const gone = run.resume.shards.filter((p) => !p.done && !shards.some((s) => s.node === p.node));
    if (gone.length > 0 && !(shards.length === 1 && run.resume.shards.length === 1)) {
      throw new AppError(
        'CONFLICT',
        `The masters changed since the run was cut (${gone.map((g) => g.node).join(', ')} no longer serve slots): start a new run.`,
        'resume',
      );
    }
  }
  if (run.selection.idleMinSeconds !== undefined) {
    for (const s of shards) {
      const policy = await s.policy();
      if (policy !== null && policy.includes('lfu')) {
        throw new AppError(
          'VALIDATION',
          `The idle filter is unavailable on ${s.node}: its maxmemory-policy is ${policy}, under which Redis tracks how often a key is used (LFU), not how long it has been idle, and OBJECT IDLETIME is refused. Drop the idle filter or switch the policy to an LRU one.`,
          'idleMinSeconds',
        );
      }
    }
  }
  await Promise.all(shards.map((s) => s.call(['SCRIPT', 'LOAD', ACTION_SCRIPT])));
}

/** A dry run's memory: the reservoir's MEMORY USAGE, mean × matched, with its 95% interval. */
async function memoryEstimate(reservoir: { shard: Shard; key: Buffer }[], matched: number): Promise<KeyActionReport['memory']> {
  if (matched === 0 || reservoir.length === 0) return null;
  const byShard = new Map<Shard, Buffer[]>();
  for (const { shard, key } of reservoir) byShard.set(shard, [...(byShard.get(shard) ?? []), key]);
  const sizes = (await Promise.all([...byShard].map(([s, keys]) => s.memory(keys)))).flat();
  if (sizes.length === 0) return null;
  const e = estimate(sizes, matched);
  return { bytes: Math.round(e.estimate), low: Math.round(e.ciLow), high: Math.round(e.ciHigh), sampled: sizes.length };
}

function asAppError(e: unknown): AppError {
  return e instanceof AppError ? e : new AppError('INTERNAL', e instanceof Error ? e.message : String(e));
}

const round = (s: number): number => Math.round(s * 1000) / 1000;
