import type { Arg } from '../audienceLink';
import { int } from '../audienceLink';
import { operandKey, SCRATCH_TTL_MS, type StrategyEnv } from '../strategy';
import type { Strategy } from '../strategy';

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
 * Sets of user ids: store the audience, SCARD it, then SINTERCARD with each day's set
 * (it walks the smaller set and probes the other: cost ~ the audience, not the day).
 * A one-term audience is read in place, without writing anything.
 */
export const sets: Strategy = {
  name: 'sets',
  layouts: ['set'],
  writes: (plan) => plan.ops.length > 0,
  async run(link, env) {
    const { cmds, audience, written } = setStores(env);
    const sizeAt = cmds.push(['SCARD', audience]) - 1;
    const firstDay = cmds.length;
    for (const day of env.days) cmds.push(['SINTERCARD', '2', audience, env.keys.active('set', day)]);
    if (written.length > 0) cmds.push(['DEL', ...written]);
    const replies = await link.call(cmds);
    return { size: int(replies[sizeAt]), counts: env.days.map((_, i) => int(replies[firstDay + i])) };
  },
};
