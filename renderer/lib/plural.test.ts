import { describe, expect, it } from 'vitest';
import { noun, plural } from './plural';

describe('plural', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    expect(plural(1, 'key')).toBe('1 key');
    expect(plural(0, 'key')).toBe('0 keys');
    expect(plural(2, 'node')).toBe('2 nodes');
    expect(plural(96_000, 'key')).toBe('96,000 keys');
  });

  it('takes an irregular plural', () => {
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(noun(1, 'was', 'were')).toBe('was');
    expect(noun(4, 'was', 'were')).toBe('were');
  });
});
