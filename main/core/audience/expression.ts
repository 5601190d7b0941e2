/** A parsed `where` expression. `position` is the 0-based offset of the term in the text. */
export type Expr =
  | { kind: 'term'; name: string; value: string; position: number }
  | { kind: 'and'; items: Expr[] }
  | { kind: 'or'; items: Expr[] }
  | { kind: 'not'; item: Expr };

export type Term = Extract<Expr, { kind: 'term' }>;

/** Distinct terms in the order they first appear. */
export function termsOf(e: Expr): Term[] {
  const seen = new Map<string, Term>();
  const walk = (x: Expr): void => {
    if (x.kind === 'term') {
      const id = `${x.name}\u0000${x.value}`;
      if (!seen.has(id)) seen.set(id, x);
    } else if (x.kind === 'not') walk(x.item);
    else x.items.forEach(walk);
  };
  walk(e);
  return [...seen.values()];
}

const BARE = /^[A-Za-z0-9_.+-]+$/;
const KEYWORDS = new Set(['AND', 'OR', 'NOT']);

function word(s: string): string {
  return BARE.test(s) && !KEYWORDS.has(s.toUpperCase()) ? s : JSON.stringify(s);
}

/** Canonical text: `name=value` terms, upper-case operators, parentheses only where precedence needs them. */
export function formatExpr(e: Expr): string {
  switch (e.kind) {
    case 'term':
      return `${word(e.name)}=${word(e.value)}`;
    case 'not':
      return `NOT ${e.item.kind === 'term' || e.item.kind === 'not' ? formatExpr(e.item) : `(${formatExpr(e.item)})`}`;
    case 'and':
      return e.items.map((x) => (x.kind === 'or' ? `(${formatExpr(x)})` : formatExpr(x))).join(' AND ');
    case 'or':
      return e.items.map(formatExpr).join(' OR ');
  }
}
