import { describe, expect, it } from 'vitest';
import { displayArg } from './displayArg';
import { parseKeyTemplate } from './keyTemplate';
import { isScore } from './redisScore';
import { columnOf, invalidUtf8At } from './utf8';

const b = (...bytes: number[]): Buffer => Buffer.from(bytes);

describe('invalidUtf8At', () => {
  it('accepts ASCII and well-formed multi-byte text', () => {
    const ok = Buffer.from('plain ключ 日本 🙂');
    expect(invalidUtf8At(ok, 0, ok.length)).toBe(-1);
  });

  it('finds truncated, stray, overlong, surrogate and out-of-range sequences', () => {
    expect(invalidUtf8At(b(0x61, 0xc3), 0, 2)).toBe(1); // truncated
    expect(invalidUtf8At(b(0x80), 0, 1)).toBe(0); // stray continuation
    expect(invalidUtf8At(b(0xc0, 0xaf), 0, 2)).toBe(0); // overlong '/'
    expect(invalidUtf8At(b(0xe0, 0x80, 0xaf), 0, 3)).toBe(0); // overlong
    expect(invalidUtf8At(b(0xed, 0xa0, 0x80), 0, 3)).toBe(0); // UTF-16 surrogate
    expect(invalidUtf8At(b(0xf4, 0x90, 0x80, 0x80), 0, 4)).toBe(0); // past U+10FFFF
    expect(invalidUtf8At(b(0x61, 0xe6, 0x97, 0xa5), 0, 3)).toBe(1); // cut off by end
  });

  it('counts columns in characters', () => {
    const line = Buffer.from('日本x');
    expect(columnOf(line, 0, 6)).toBe(3);
  });
});

describe('displayArg', () => {
  it('keeps printable text and UTF-8, escapes the rest like redis-cli', () => {
    const v = Buffer.concat([Buffer.from('a b"é'), b(0x0a, 0x0d, 0x00, 0x7f, 0xc3), Buffer.from('\\')]);
    expect(displayArg(v, 0, v.length)).toBe('a b"é\\n\\r\\x00\\x7f\\xc3\\\\');
  });
});

describe('parseKeyTemplate', () => {
  it('splits literals and columns', () => {
    expect(parseKeyTemplate('user:{id}:{region}')).toEqual([{ literal: 'user:' }, { column: 'id' }, { literal: ':' }, { column: 'region' }]);
    expect(parseKeyTemplate('{{x}}')).toEqual([{ literal: '{x}' }]);
  });
});

describe('isScore', () => {
  it('takes what ZADD takes', () => {
    for (const s of ['1', '-1', '+1.5', '.5', '5.', '1e10', '1E-3', 'inf', '-INF', '+Infinity']) expect(isScore(Buffer.from(s), 0, s.length), s).toBe(true);
    for (const s of ['', 'nan', 'abc', '1.2.3', '1e', '--1', ' 1', '1 ', 'infin', '0x1p3']) expect(isScore(Buffer.from(s), 0, s.length), s).toBe(false);
  });
});
