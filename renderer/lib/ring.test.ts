import { describe, expect, it } from 'vitest';
import { frozen, Ring } from './ring';

describe('Ring', () => {
  it('keeps the newest items up to its capacity, oldest first', () => {
    const r = new Ring<number>(3);
    expect(r.push(1)).toBeUndefined();
    r.push(2);
    r.push(3);
    expect(r.push(4)).toBe(1);
    expect(r.push(5)).toBe(2);
    expect(r.toArray()).toEqual([3, 4, 5]);
    expect(r.length).toBe(3);
    expect(r.at(0)).toBe(3);
    expect(r.last()).toBe(5);
    expect(r.at(3)).toBeUndefined();
    expect(r.at(-1)).toBeUndefined();
  });

  it('never holds more than its capacity however much is pushed', () => {
    const r = new Ring<number>(10_000);
    for (let i = 0; i < 1_000_000; i++) r.push(i);
    expect(r.length).toBe(10_000);
    expect(r.at(0)).toBe(990_000);
    expect(r.last()).toBe(999_999);
  });

  it('shifts from the front and wraps around', () => {
    const r = new Ring<string>(2);
    r.push('a');
    r.push('b');
    expect(r.shift()).toBe('a');
    r.push('c');
    expect(r.toArray()).toEqual(['b', 'c']);
    expect(r.shift()).toBe('b');
    expect(r.shift()).toBe('c');
    expect(r.shift()).toBeUndefined();
    expect(r.length).toBe(0);
  });

  it('clears', () => {
    const r = new Ring<number>(2);
    r.push(1);
    r.clear();
    expect(r.length).toBe(0);
    r.push(7);
    expect(r.toArray()).toEqual([7]);
  });

  it('refuses a capacity below one', () => {
    expect(() => new Ring(0)).toThrow(RangeError);
  });

  it('freezes a copy as a source', () => {
    const f = frozen([1, 2]);
    expect(f.length).toBe(2);
    expect(f.at(1)).toBe(2);
  });
});
