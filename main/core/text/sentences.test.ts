import { describe, expect, it } from 'vitest';
import { sentences } from './sentences';

describe('sentences', () => {
  it('joins with one period between parts, whatever the parts end with', () => {
    expect(sentences('Cannot reach it; try again.', 'DB 0 was not touched')).toBe('Cannot reach it; try again. DB 0 was not touched');
    expect(sentences('a..', '', ' b ')).toBe('a. b');
  });
});
