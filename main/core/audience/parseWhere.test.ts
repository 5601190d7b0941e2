import { describe, expect, it } from 'vitest';
import { formatExpr, termsOf } from './expression';
import { ParseFailure } from './parseFailure';
import { parseWhere } from './parseWhere';

function failure(text: string): ParseFailure {
  try {
    parseWhere(text);
  } catch (e) {
    if (e instanceof ParseFailure) return e;
    throw e;
  }
  throw new Error(`"${text}" parsed`);
}

describe('parseWhere', () => {
  it('reads the issue example with AND binding tighter than OR, NOT and name:value terms', () => {
    const e = parseWhere('gender=f AND age=25-34 AND (region=NE OR region=MA) AND NOT interest:golf');
    expect(formatExpr(e)).toBe('gender=f AND age=25-34 AND (region=NE OR region=MA) AND NOT interest=golf');
    expect(termsOf(e).map((t) => `${t.name}=${t.value}`)).toEqual(['gender=f', 'age=25-34', 'region=NE', 'region=MA', 'interest=golf']);
  });

  it('gives AND precedence over OR and accepts lower-case keywords', () => {
    expect(formatExpr(parseWhere('a=1 or b=2 and c=3'))).toBe('a=1 OR b=2 AND c=3');
    expect(formatExpr(parseWhere('(a=1 or b=2) and not (c=3 or d=4)'))).toBe('(a=1 OR b=2) AND NOT (c=3 OR d=4)');
  });

  it('keeps values with +, - and quotes', () => {
    const e = parseWhere('age=65+ AND income="100-150k" AND city="New York"');
    expect(termsOf(e).map((t) => t.value)).toEqual(['65+', '100-150k', 'New York']);
    expect(formatExpr(e)).toBe('age=65+ AND income=100-150k AND city="New York"');
  });

  it('names the position and what was expected', () => {
    const missing = failure('gender=f AND age=');
    expect(missing.position).toBe(17);
    expect(missing.expected).toEqual(['a value after "="']);
    expect(missing.message).toBe('column 18: expected a value after "=", found end of input');

    const doubled = failure('gender=f AND AND age=25-34');
    expect(doubled.position).toBe(13);
    expect(doubled.found).toBe('"AND"');

    const unclosed = failure('(region=NE OR region=MA');
    expect(unclosed.position).toBe(23);
    expect(unclosed.message).toContain('")" to close the "(" at column 1');

    const juxtaposed = failure('gender=f age=25-34');
    expect(juxtaposed.position).toBe(9);
    expect(juxtaposed.expected).toEqual(['AND', 'OR', 'end of input']);

    expect(failure('gender=f & age=1').position).toBe(9);
    expect(failure('gender').message).toBe('column 7: expected "=" or ":" after "gender", found end of input');
    expect(failure('   ').position).toBe(3);
    expect(failure('a="open').message).toContain('not closed');
  });

  it('takes no operator as a value: `age= OR region=NE` is missing the value, at the value', () => {
    const e = failure('age= OR region=NE');
    expect(e.position).toBe(4);
    expect(e.found).toBe('"OR"');
    expect(e.message).toBe('column 5: age= has no value (OR is an operator here; to mean the word, quote it: "OR")');
    expect(failure('age:and').position).toBe(4);
    expect(failure('a=1 AND b=not').position).toBe(10);
    // Quoted, the word is a value like any other, and written back quoted.
    expect(formatExpr(parseWhere('age="OR" OR region=NE'))).toBe('age="OR" OR region=NE');
  });
});
