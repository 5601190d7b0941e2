import { AppError } from '../../../app/errors';
import {
  STRATEGY_NAMES,
  type AudienceEvent,
  type AudienceReport,
  type AudienceTrialOptions,
  type StrategyName,
  type StrategyResult,
} from '../../../app/schemas/audience';
import type { RawConnection } from '../resp/rawConnection';
import type { RawTarget } from '../resp/rawTarget';
import { toAppError } from '../pool/redisErrors';
import type { AudienceLink } from './audienceLink';
import type { FinalAudienceEvent } from './audienceJobs';
import { crossCheck } from './crossCheck';
import { daysBetween } from './days';
import { formatExpr, termsOf } from './expression';
import { LayoutKeys } from './layoutKeys';
import { linkOver } from './openLink';
import { ParseFailure } from './parseFailure';
import { parseWhere } from './parseWhere';
import { planOf } from './plan';
import { checkScratchLive, inspectLayouts, otherClientNamed, scratchWriteRefusal } from './preflight';
import { checkScratchPrefix, Scratch } from './scratch';
import { removeScratch } from './removeScratch';
import { READ_ONLY_REASON, type Strategy } from './strategy';
import { STRATEGIES } from './strategies';
import { skippedResult, timeStrategy, TrialCancelled } from './timeStrategy';
import { explainReply } from './audienceServer';

export type AudienceSettings = Omit<AudienceTrialOptions, 'profileId' | 'db'> & { db: number };

export interface AudienceRun extends RawTarget {
  profileId: string;
  /** The report's id (the job id in the app). */
  reportId: string;
  options: AudienceSettings;
  /**
   * An analyst's trial: strategies that would store scratch keys are skipped before it starts
   * (READ_ONLY_REASON), and nothing is written, not even the scratch probe.
   */
  readOnly?: boolean;
  /** Tests only: a stand-in for a strategy, to make one fail half-way. */
  strategies?: Partial<Record<StrategyName, Strategy>>;
}

/** At most ten progress events a second. */
const PROGRESS_EVERY_MS = 100;

const TRIAL_NAME_PREFIX = 'cacheboard:audience:trial:';

/** CLIENT SETNAME of a trial's connection: CLIENT LIST then shows the trial to every other process. */
export const audienceTrialName = (reportId: string): string => `${TRIAL_NAME_PREFIX}${reportId}`;

/**
 * One audience trial: parse, check the layouts and the scratch prefix, then time each
 * strategy (warm-up, K runs), cross-check their answers and report. Emits `started`,
 * progress, one `strategy` per result; resolves with `done`, `cancelled` (the strategies
 * that finished) or `failed`. Scratch keys are deleted whatever happens.
 */
export async function runAudience(run: AudienceRun, emit: (e: AudienceEvent) => void, signal: AbortSignal): Promise<FinalAudienceEvent> {
  const o = run.options;
  const t0 = performance.now();
  const keys = new LayoutKeys(o.layout);
  const scratch = new Scratch(keys);
  const results = new Map<StrategyName, StrategyResult>();
  let conn: RawConnection | null = null;
  let link: AudienceLink | null = null;
  let normalized = o.where.trim();
  let warnings: string[] = [];
  const address = () => conn?.address ?? `${run.errorContext.host ?? '?'}:${run.errorContext.port ?? '?'}`;

  const report = (): AudienceReport => {
    const ordered = STRATEGY_NAMES.flatMap((n) => results.get(n) ?? []);
    const { mismatches, results: checked } = crossCheck(ordered);
    const ref = checked.find((r) => r.skipped === undefined);
    const ran = checked.filter((r) => r.skipped === undefined).length;
    const notes = [...warnings];
    if (ran === 1) notes.push(`only ${ref?.name ?? 'one strategy'} ran: there was nothing to cross-check it with`);
    if (mismatches.length > 0) notes.unshift(`COUNTS DIFFER between strategies (${mismatches.length} differences): see mismatches`);
    return {
      id: run.reportId,
      profileId: run.profileId,
      address: address(),
      db: o.db,
      where: o.where,
      normalized,
      from: o.from,
      to: o.to,
      trials: o.trials,
      warmup: o.warmup,
      audienceSize: ref?.audienceSize ?? 0,
      days: ref?.days ?? [],
      strategies: checked,
      countsMatch: mismatches.length === 0,
      mismatches,
      warnings: notes,
      finishedAt: new Date().toISOString(),
      seconds: Math.round((performance.now() - t0) / 10) / 100,
    };
  };

  try {
    const expr = parseWhere(o.where);
    normalized = formatExpr(expr);
    const plan = planOf(expr);
    const days = daysBetween(o.from, o.to);
    checkScratchPrefix(keys);
    conn = await run.connect();
    link = linkOver(conn, run.errorContext, 'during an audience trial; its scratch keys expire on their own.');
    // One trial per server: two at once would each time the other's load. The job manager knows
    // this process's trials; CLIENT LIST shows those of other processes (a CLI, another app).
    const other = await otherClientNamed(link, TRIAL_NAME_PREFIX, audienceTrialName(run.reportId));
    if (other !== undefined) {
      throw new AppError('CONFLICT', `Audience trial ${other.id} is already running on ${link.address} (client ${other.addr}); wait for it or cancel it`);
    }
    const facts = await inspectLayouts(link, keys, termsOf(expr), days, plan);
    warnings = facts.warnings;
    await checkScratchLive(link, keys);
    const strategies = STRATEGY_NAMES.filter((n) => o.strategies.includes(n)).map((n) => run.strategies?.[n] ?? STRATEGIES[n]);
    const needsWrites = run.readOnly !== true && strategies.some((s) => s.writes(plan) && s.layouts.every((l) => facts.missing[l] === undefined));
    const refusal = run.readOnly === true ? READ_ONLY_REASON : needsWrites ? await scratchWriteRefusal(link, scratch) : undefined;

    const toRun: Strategy[] = [];
    for (const s of strategies) {
      const reason = s.layouts.map((l) => facts.missing[l]).find((x) => x !== undefined) ?? (s.writes(plan) ? refusal : undefined);
      if (reason === undefined) toRun.push(s);
      else results.set(s.name, skippedResult(s, reason));
    }
    emit({
      kind: 'started',
      address: conn.address,
      db: o.db,
      normalized,
      days,
      strategies: toRun.map((s) => s.name),
      skipped: [...results.values()].map((r) => ({ name: r.name, reason: r.skipped ?? '' })),
      trials: o.trials,
      warmup: o.warmup,
    });
    for (const r of results.values()) emit({ kind: 'strategy', result: r });

    const env = { keys, plan, days, scratch };
    let last = -Infinity;
    for (const s of toRun) {
      const progress = (phase: 'warmup' | 'timed', n: number, runs: number) => {
        const now = performance.now();
        if (now - last < PROGRESS_EVERY_MS && n < runs) return;
        last = now;
        emit({ kind: 'progress', strategy: s.name, phase, run: n, runs, elapsedMs: Math.round(now - t0) });
      };
      const result = await timeStrategy(link, s, env, { warmup: o.warmup, trials: o.trials, signal, progress });
      results.set(s.name, result);
      emit({ kind: 'strategy', result });
    }
    if (signal.aborted) throw new TrialCancelled();
    return { kind: 'done', report: report() };
  } catch (e) {
    if (e instanceof TrialCancelled || (signal.aborted && !(e instanceof AppError && e.code === 'VALIDATION'))) {
      return { kind: 'cancelled', report: report() };
    }
    if (e instanceof ParseFailure) {
      return { kind: 'failed', error: { code: 'VALIDATION', message: `where: ${e.message}`, field: 'where', position: e.position } };
    }
    const err = e instanceof AppError ? e : toAppError(e, run.errorContext);
    return { kind: 'failed', error: { ...err.toInfo(), message: explainReply(err.message) } };
  } finally {
    await removeScratch(scratch.all(), link, run.connect);
    await conn?.close();
  }
}
