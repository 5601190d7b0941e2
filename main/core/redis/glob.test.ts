import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { compileGlob, globMatch, literalPrefix, prefixGlob } from './glob';

const redis = useRedis();
let admin: Redis;

// Names with every byte class the matcher treats specially: wildcards and brackets as literal
// bytes, a backslash, bytes past 0x7f (signed in C), CR/LF, empty and separator-only names.
const NAMES: Buffer[] = [
  'a',
  'ab',
  'abc',
  'b',
  'user:1',
  'user:12',
  'user:123',
  'user:2',
  'a*b',
  'a?b',
  'a[b',
  'a]b',
  'a\\b',
  'a-b',
  '^x',
  'x^',
  ':',
  '::',
  'a::b',
  '',
  'hello',
  'hallo',
  'hxllo',
  'heeeello',
  'a\r\nb',
  '[',
  ']',
  '*',
  '?',
  '\\',
]
  .map((s) => Buffer.from(s, 'latin1'))
  .concat([Buffer.from([0xff]), Buffer.from([0x61, 0xff, 0x62]), Buffer.from([0x80]), Buffer.from([0x7f]), Buffer.from([0x00, 0x61])]);

const PATTERNS: Buffer[] = [
  '*',
  'a*',
  '*b',
  'a?b',
  'h[ae]llo',
  'h[^e]llo',
  'h[a-b]llo',
  'h[b-a]llo',
  'user:1*',
  'user:1?',
  'a\\*b',
  'a\\?b',
  'a\\[b',
  'a[\\]]b',
  'a[\\\\]b',
  'a[',
  '[',
  'a[b',
  '\\',
  'a\\',
  '*:*',
  '*::*',
  '?',
  '??',
  '[^a]',
  '[]',
  '[]]',
  '[^]',
  'h*llo',
  'h**llo',
  '*e*e*',
  'a[-]b',
  'a[a-]',
  '[a-c-e]',
  'a\r\n*',
  'x[^]',
]
  .map((s) => Buffer.from(s, 'latin1'))
  .concat([
    Buffer.from([0x61, 0x5b, 0x61, 0x2d, 0xff, 0x5d, 0x62]),
    Buffer.from([0x5b, 0x00, 0x2d, 0xff, 0x5d]),
    Buffer.from([0x2a, 0xff, 0x2a]),
    Buffer.from([0x5b, 0x7f, 0x2d, 0x80, 0x5d]),
  ]);

beforeAll(async () => {
  admin = await adminClient(redis());
  for (const n of NAMES) await admin.set(n, '1');
});
afterAll(() => closeAdmins());

/** What the server's own SCAN MATCH keeps of the DB's keys (NAMES in DB 0). */
async function serverMatches(pattern: Buffer): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = (await admin.callBuffer('SCAN', cursor, 'MATCH', pattern, 'COUNT', '1000')) as [Buffer, Buffer[]];
    cursor = next.toString();
    out.push(...keys.map((k) => k.toString('hex')));
  } while (cursor !== '0');
  return out.sort();
}

describe('globMatch is Redis SCAN MATCH', () => {
  it.each(PATTERNS.map((p) => [p.toString('latin1').replace(/[\r\n]/g, '·'), p]))('%s selects what the server selects', async (_label, pattern) => {
    const ours = NAMES.filter((n) => globMatch(pattern as Buffer, n))
      .map((n) => n.toString('hex'))
      .sort();
    expect(ours).toEqual(await serverMatches(pattern as Buffer));
  });

  it('the literal prefix stops at the first wildcard and unescapes; prefixGlob matches exactly the names under a prefix', async () => {
    expect(literalPrefix(Buffer.from('user:12*')).prefix.toString()).toBe('user:12');
    expect(literalPrefix(Buffer.from('a\\*b?')).prefix.toString()).toBe('a*b');
    expect(literalPrefix(Buffer.from('abc'))).toMatchObject({ exact: true });
    for (const prefix of ['a', 'a*', 'a[', '\\', 'user:1']) {
      const p = Buffer.from(prefix, 'latin1');
      const want = NAMES.filter((n) => n.subarray(0, p.length).equals(p))
        .map((n) => n.toString('hex'))
        .sort();
      expect(await serverMatches(prefixGlob(p))).toEqual(want);
    }
  });
});

describe('compileGlob: the same glob over text (MONITOR key filters)', () => {
  // Each answer is checked against the server too: `text` alone in DB 1, then SCAN MATCH.
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
    // An unclosed [ is a class running to the pattern's end, as in the server: `[` itself is not in it.
    ['[unclosed', '[unclosed', false],
    ['[unclosed', 'n', true],
  ])('%j vs %j -> %s', async (pattern, text, want) => {
    expect(compileGlob(pattern)(text)).toBe(want);
    await admin.select(1);
    try {
      await admin.flushdb();
      await admin.set(text, '1');
      expect(await serverMatches(Buffer.from(pattern))).toEqual(want ? [Buffer.from(text).toString('hex')] : []);
    } finally {
      await admin.select(0);
    }
  });

  it('answers a pathological pattern quickly (no exponential backtracking)', () => {
    const m = compileGlob('*a*a*a*a*a*a*a*a*b');
    const text = 'a'.repeat(5000);
    const t0 = performance.now();
    expect(m(text)).toBe(false);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});
