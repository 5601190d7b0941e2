import type { LayoutKind, StrategyName } from '../../../app/schemas/audience';
import type { AudienceLink } from './audienceLink';
import type { LayoutKeys, MembershipKind } from './layoutKeys';
import type { Operand, Plan } from './plan';
import type { Scratch } from './scratch';

/** What every strategy answers: the audience size and its active members per day. */
export interface Answer {
  size: number;
  counts: number[];
}

export interface StrategyEnv {
  keys: LayoutKeys;
  plan: Plan;
  days: readonly string[];
  scratch: Scratch;
}

export interface Strategy {
  name: StrategyName;
  /** Layouts whose keys it reads. */
  layouts: readonly LayoutKind[];
  /** Whether it stores scratch keys for this plan (skipped with the reason when the user may not). */
  writes(plan: Plan): boolean;
  /** One run; deletes its own scratch keys before it resolves (the runner also does after a failure). */
  run(link: AudienceLink, env: StrategyEnv): Promise<Answer>;
}

/** The key an operand names in a set or bitmap layout. */
export function operandKey(o: Operand, kind: MembershipKind, env: StrategyEnv): string {
  if (o.kind === 'term') return env.keys.attr(kind, o.term);
  if (o.kind === 'all') return env.keys.all(kind);
  return env.scratch.key(o.reg);
}

/** Last-resort TTL of scratch registers, should the process die between a store and its DEL. */
export const SCRATCH_TTL_MS = 60_000;

/**
 * Why a strategy is skipped in an analyst's trial: it never writes to the server it times,
 * scratch keys included, so it runs only what reads in place.
 */
export const READ_ONLY_REASON = "an analyst's trial only reads, and this strategy would store scratch keys for this audience";
