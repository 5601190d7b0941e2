import type { Plan } from './plan';
import { operandKey, type StrategyEnv } from './strategy';

/** BITOP as Redis runs it: dest = op(srcs); a missing source counts as all zeros. */
export interface BitOp {
  op: 'AND' | 'OR' | 'XOR';
  dest: string;
  srcs: string[];
}

/**
 * A plan in BITOP terms. Redis 7 has no BITOP DIFF, and BITOP NOT stops at the source's
 * length (users past its last byte would come out as "not in it" = 0), so a difference
 * is `a XOR (a AND (b1 OR …))`, which is right whatever the bitmaps' lengths.
 */
export function bitmapOps(plan: Plan, env: StrategyEnv): { ops: BitOp[]; audience: string; written: string[] } {
  const ops: BitOp[] = [];
  const written = new Set<string>();
  const push = (op: BitOp['op'], dest: string, srcs: string[]) => {
    ops.push({ op, dest, srcs });
    written.add(dest);
  };
  for (const p of plan.ops) {
    const dest = env.scratch.key(p.dest);
    const srcs = p.srcs.map((s) => operandKey(s, 'bitmap', env));
    if (p.op !== 'diff') {
      push(p.op === 'and' ? 'AND' : 'OR', dest, srcs);
      continue;
    }
    const [a, ...rest] = srcs as [string, ...string[]];
    let union = rest[0] as string;
    if (rest.length > 1) {
      union = env.scratch.key(`u${p.dest}`);
      push('OR', union, rest);
    }
    const common = env.scratch.key(`c${p.dest}`);
    push('AND', common, [a, union]);
    push('XOR', dest, [a, common]);
  }
  return { ops, audience: operandKey(plan.result, 'bitmap', env), written: [...written] };
}
