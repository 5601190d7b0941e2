import { describe, expect, it } from 'vitest';
import { compileGlob } from './globMatch';

describe('compileGlob', () => {
  it.each([
    ['user:*', 'user:1', true],
    ['user:*', 'session:1', false],
    ['*:cart', 'u:1:cart', true],
    ['h?llo', 'hello', true],
    ['h?llo', 'hllo', false],
    ['h[ae]llo', 'hallo', true],
    ['h[ae]llo', 'hillo', false],
    ['h[^e]llo', 'hallo', true],
    ['h[^e]llo', 'hello', false],
    ['h[a-b]llo', 'hbllo', true],
    ['h[a-b]llo', 'hcllo', false],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['*', '', true],
    ['', '', true],
    ['', 'x', false],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['[unclosed', '[unclosed', true],
  ])('%j vs %j -> %s', (pattern, text, want) => {
    expect(compileGlob(pattern)(text)).toBe(want);
  });

  it('agrees with redis-style matching on a pathological pattern, quickly', () => {
    const m = compileGlob('*a*a*a*a*a*a*a*a*b');
    const text = 'a'.repeat(5000);
    const t0 = performance.now();
    expect(m(text)).toBe(false);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});
