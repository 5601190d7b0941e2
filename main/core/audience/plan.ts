import type { Expr, Term } from './expression';

/** A set of users: an attribute's key, every user (for NOT), or a scratch register. */
export type Operand = { kind: 'term'; term: Term } | { kind: 'all' } | { kind: 'reg'; reg: number };

/** One set operation: dest = AND/OR of srcs, or first src minus the union of the others. */
export interface PlanOp {
  op: 'and' | 'or' | 'diff';
  dest: number;
  srcs: Operand[];
}

/** An expression as set operations, independent of bitmaps, sets or scripts. */
export interface Plan {
  ops: PlanOp[];
  /** The audience: a data key when the expression is one term, else the last register. */
  result: Operand;
  /** Registers used (0 … regs-1). */
  regs: number;
  /** NOT was taken against every user (the population key is needed). */
  usesAll: boolean;
}

/**
 * Lowers an expression to set operations. `A AND NOT B AND NOT C` becomes one
 * difference (SDIFFSTORE's own shape), so NOT needs the population key only when it
 * stands alone or under OR.
 */
export function planOf(expr: Expr): Plan {
  const ops: PlanOp[] = [];
  let regs = 0;
  let usesAll = false;
  const emit = (op: PlanOp['op'], srcs: Operand[]): Operand => {
    const dest = regs++;
    ops.push({ op, dest, srcs });
    return { kind: 'reg', reg: dest };
  };
  const all = (): Operand => {
    usesAll = true;
    return { kind: 'all' };
  };

  const lower = (e: Expr): Operand => {
    switch (e.kind) {
      case 'term':
        return { kind: 'term', term: e };
      case 'not':
        return emit('diff', [all(), lower(e.item)]);
      case 'or':
        return emit('or', e.items.map(lower));
      case 'and': {
        const pos = e.items.filter((x) => x.kind !== 'not').map(lower);
        const neg = e.items.flatMap((x) => (x.kind === 'not' ? [lower(x.item)] : []));
        const base = pos.length === 0 ? all() : pos.length === 1 ? (pos[0] as Operand) : emit('and', pos);
        return neg.length === 0 ? base : emit('diff', [base, ...neg]);
      }
    }
  };

  const result = lower(expr);
  return { ops, result, regs, usesAll };
}
