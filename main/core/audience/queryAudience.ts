import { AppError } from '../../../app/errors';
import { STRATEGY_NAMES, type AudienceQueryResult, type AudienceTrialOptions, type StrategyName } from '../../../app/schemas/audience';
import type { RawConnection } from '../resp/rawConnection';
import { CommandRefused, type AudienceLink } from './audienceLink';
import { daysBetween } from './days';
import { termsOf, type Expr } from './expression';
import { LayoutKeys } from './layoutKeys';
import { ParseFailure } from './parseFailure';
import { parseWhere } from './parseWhere';
import { planOf } from './plan';
import { checkScratchLive, inspectLayouts } from './preflight';
import { removeScratch } from './removeScratch';
import { checkScratchPrefix, Scratch } from './scratch';
import { STRATEGIES } from './strategies';

export type AudienceQuery = Pick<AudienceTrialOptions, 'layout' | 'where' | 'from' | 'to'> & { strategy?: StrategyName | undefined };

/** A kept connection a query runs over. */
export interface QueryTarget {
  link: AudienceLink;
  /** A fresh connection, to remove scratch keys should this one fail half-way. */
  connect: () => Promise<RawConnection>;
  /**
   * Scratch prefixes (with the hash tag) whose live check passed on this connection. That check SCANs up to
   * ~100k slots (tens of ms on a big DB), so it runs once per connection, not per query.
   */
  checked: Set<string>;
}

function parsed(where: string): Expr {
  try {
    return parseWhere(where);
  } catch (e) {
    throw e instanceof ParseFailure ? new AppError('VALIDATION', `where: ${e.message}`, 'where') : e;
  }
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * One audience answered now, without a job: the same checks and strategies as a trial,
 * one run. Without a strategy asked for, the first in trial order that can run here
 * answers (bitmap-lua, then bitmap-pipeline, sets, zunionstore); each one passed over is
 * named in the warnings (a missing layout, NOPERM on scripting or on the scratch prefix).
 * A strategy deletes its scratch keys itself; after a failure they are removed here.
 */
export async function queryAudience(t: QueryTarget, q: AudienceQuery): Promise<AudienceQueryResult> {
  try {
    return await answer(t, q);
  } catch (e) {
    // A check before any strategy (EXISTS, SCAN) refused by the server: say which, not "failed unexpectedly".
    if (!(e instanceof CommandRefused)) throw e;
    throw new AppError(e.permission ? 'NOPERM' : 'REDIS', `the audience could not be checked here: ${e.message}`);
  }
}

async function answer(t: QueryTarget, q: AudienceQuery): Promise<AudienceQueryResult> {
  const expr = parsed(q.where);
  const keys = new LayoutKeys(q.layout);
  checkScratchPrefix(keys);
  const plan = planOf(expr);
  const days = daysBetween(q.from, q.to);
  const facts = await inspectLayouts(t.link, keys, termsOf(expr), days, plan);
  const scratchAt = `${q.layout.scratchPrefix}\u0000${q.layout.hashTag ?? ''}`;
  if (!t.checked.has(scratchAt)) {
    await checkScratchLive(t.link, keys);
    t.checked.add(scratchAt);
  }

  const passed: string[] = [];
  let refusal: CommandRefused | undefined;
  for (const name of q.strategy === undefined ? STRATEGY_NAMES : [q.strategy]) {
    const s = STRATEGIES[name];
    const missing = s.layouts.map((l) => facts.missing[l]).find((x) => x !== undefined);
    if (missing !== undefined) {
      passed.push(`${name} could not answer here: ${missing}`);
      continue;
    }
    const scratch = new Scratch(keys);
    try {
      const t0 = performance.now();
      const answer = await s.run(t.link, { keys, plan, days, scratch });
      const ms = performance.now() - t0;
      return {
        audienceSize: answer.size,
        days: days.map((day, i) => ({ day, count: answer.counts[i] ?? 0 })),
        strategy: name,
        ms: round3(ms),
        warnings: [...passed, ...facts.warnings],
      };
    } catch (e) {
      await removeScratch(scratch.all(), t.link, t.connect);
      if (!(e instanceof CommandRefused)) throw e;
      refusal = e;
      passed.push(`${name} could not answer here: ${e.message}`);
    }
  }
  const code = refusal === undefined ? 'VALIDATION' : refusal.permission ? 'NOPERM' : 'REDIS';
  throw new AppError(code, q.strategy === undefined ? `no strategy can answer here: ${passed.join('; ')}` : (passed[0] as string), 'strategy');
}
