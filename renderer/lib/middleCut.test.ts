import { describe, expect, it } from 'vitest';
import { middleCut } from './middleCut';

describe('middleCut', () => {
  it('keeps the last segment whole as the tail when it is long enough to tell names apart', () => {
    expect(middleCut('cache:product:eu:0000040')).toEqual({ head: 'cache:product:eu', tail: ':0000040' });
    expect(middleCut('sessions/2024/11/28/abcdef123456')).toEqual({ head: 'sessions/2024/11/28', tail: '/abcdef123456' });
  });

  it('takes more than a short last segment, so `…:a` does not hide the part that differs', () => {
    expect(middleCut('cache:product:eu:0000040:a')).toEqual({ head: 'cache:product:eu', tail: ':0000040:a' });
  });

  it('falls back to a fixed tail when no separator is near the end', () => {
    const name = `blob${'x'.repeat(40)}0123456789AB`;
    const { head, tail } = middleCut(name);
    expect(tail).toBe('0123456789AB');
    expect(head + tail).toBe(name);
  });

  it('leaves a short name whole', () => {
    expect(middleCut('user:1')).toEqual({ head: 'user:1', tail: '' });
  });

  it('never splits a surrogate pair', () => {
    const name = `${'p'.repeat(20)}${'😀'.repeat(12)}`;
    const { head, tail } = middleCut(name);
    expect(head + tail).toBe(name);
    expect(Array.from(tail)).toHaveLength(12);
    expect(tail.startsWith('😀')).toBe(true);
  });
});
