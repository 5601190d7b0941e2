import type { Expr } from './expression';
import { ParseFailure } from './parseFailure';
import { tokenize, type Token } from './whereTokens';

/**
 * Recursive descent over
 *   or := and (OR and)* ;  and := unary (AND unary)* ;  unary := NOT unary | '(' or ')' | term
 *   term := name ('=' | ':') value
 * AND binds tighter than OR; keywords are case-insensitive. Throws ParseFailure
 * at the first token that fits nowhere, naming what would have fitted.
 */
const KEYWORDS = new Set(['AND', 'OR', 'NOT']);

export function parseWhere(text: string): Expr {
  const tokens = tokenize(text);
  let at = 0;
  const peek = (): Token => tokens[at] as Token;
  const keyword = (t: Token, k: string): boolean => t.kind === 'word' && t.text.toUpperCase() === k;
  const fail = (expected: string[]): never => {
    const t = peek();
    const found = t.kind === 'end' ? 'end of input' : JSON.stringify(t.text);
    throw new ParseFailure(t.position, expected, found);
  };

  const term = (): Expr => {
    const name = peek();
    if (name.kind !== 'word' || keyword(name, 'AND') || keyword(name, 'OR')) return fail(['an attribute (name=value)', 'NOT', '(']);
    at++;
    const op = peek();
    if (op.kind !== '=' && op.kind !== ':') return fail([`"=" or ":" after ${JSON.stringify(name.text)}`]);
    at++;
    const value = peek();
    if (value.kind !== 'word' && value.kind !== 'string') return fail([`a value after "${op.text}"`]);
    // `age= OR region=NE`: the value is missing, and the OR is the operator it looks like, not a
    // value. The error is at the empty value (a quoted "OR" is the way to mean the word).
    if (value.kind === 'word' && KEYWORDS.has(value.text.toUpperCase())) {
      const empty = op.position + op.text.length;
      throw new ParseFailure(
        empty,
        [`a value after "${op.text}"`],
        JSON.stringify(value.text),
        `${name.text}${op.text} has no value (${value.text.toUpperCase()} is an operator here; to mean the word, quote it: "${value.text}")`,
      );
    }
    at++;
    return { kind: 'term', name: name.text, value: value.text, position: name.position };
  };

  const unary = (): Expr => {
    const t = peek();
    if (keyword(t, 'NOT')) {
      at++;
      return { kind: 'not', item: unary() };
    }
    if (t.kind === '(') {
      at++;
      const inner = or();
      if (peek().kind !== ')') fail(['AND', 'OR', `")" to close the "(" at column ${t.position + 1}`]);
      at++;
      return inner;
    }
    return term();
  };

  const chain = (kind: 'and' | 'or', word: string, item: () => Expr): Expr => {
    const items = [item()];
    while (keyword(peek(), word)) {
      at++;
      items.push(item());
    }
    if (items.length === 1) return items[0] as Expr;
    // (a AND b) AND c reads as a AND b AND c: one BITOP/SINTERSTORE over every operand.
    return { kind, items: items.flatMap((x) => (x.kind === kind ? x.items : [x])) } as Expr;
  };
  const and = (): Expr => chain('and', 'AND', unary);
  const or = (): Expr => chain('or', 'OR', and);

  if (peek().kind === 'end') fail(['an attribute (name=value)', 'NOT', '(']);
  const expr = or();
  if (peek().kind !== 'end') fail(['AND', 'OR', 'end of input']);
  return expr;
}
