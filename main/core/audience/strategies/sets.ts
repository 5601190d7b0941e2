import type { Arg } from '../audienceLink';
import { int } from '../audienceLink';
import { operandKey, SCRATCH_TTL_MS, type StrategyEnv } from '../strategy';
import type { Strategy } from '../strategy';
import type { Operand } from '../plan';

const STORE = { and: 'SINTERSTORE', or: 'SUNIONSTORE', diff: 'SDIFFSTORE' } as const;

/** The plan as SINTERSTORE/SUNIONSTORE/SDIFFSTORE into scratch sets, each given a last-resort TTL. */
export function setStores(env: StrategyEnv): { cmds: Arg[][]; audience: string; written: string[] } {
  const cmds: Arg[][] = [];
  const written: string[] = [];
  for (const p of env.plan.ops) {
    const dest = env.scratch.key(p.dest);
    cmds.push([STORE[p.op], dest, ...p.srcs.map((s) => operandKey(s, 'set', env))]);
    written.push(dest);
  }
  for (const k of written) cmds.push(['PEXPIRE', k, String(SCRATCH_TTL_MS)]);
  return { cmds, audience: operandKey(env.plan.result, 'set', env), written };
}

/**
 * The audience's data keys when it is one term or terms joined by AND: SINTERCARD counts it
 * in place, so nothing is stored. Any OR or NOT needs a stored set; undefined then.
 */
function inPlace(plan: StrategyEnv['plan']): Operand[] | undefined {
  if (plan.ops.length === 0) return [plan.result];
  const only = plan.ops[0];
  if (plan.ops.length === 1 && only?.op === 'and' && only.srcs.every((o) => o.kind === 'term')) return only.srcs;
  return undefined;
}

/**
 * Sets of user ids: store the audience, SCARD it, then SINTERCARD with each day's set
 * (it walks the smallest set and probes the others: cost ~ the audience, not the day).
 * An audience of one term, or of terms joined by AND, is counted in place by SINTERCARD
 * over its own keys, without writing anything (what an analyst's trial may run).
 */
export const sets: Strategy = {
  name: 'sets',
  layouts: ['set'],
  writes: (plan) => inPlace(plan) === undefined,
  async run(link, env) {
    const direct = inPlace(env.plan);
    const stored: ReturnType<typeof setStores> = direct === undefined ? setStores(env) : { cmds: [], audience: '', written: [] };
    const { cmds, written } = stored;
    const of = direct === undefined ? [stored.audience] : direct.map((o) => operandKey(o, 'set', env));
    const sizeAt = cmds.push(of.length === 1 ? ['SCARD', of[0] as string] : ['SINTERCARD', String(of.length), ...of]) - 1;
    const firstDay = cmds.length;
    for (const day of env.days) cmds.push(['SINTERCARD', String(of.length + 1), ...of, env.keys.active('set', day)]);
    if (written.length > 0) cmds.push(['DEL', ...written]);
    const replies = await link.call(cmds);
    return { size: int(replies[sizeAt]), counts: env.days.map((_, i) => int(replies[firstDay + i])) };
  },
};
