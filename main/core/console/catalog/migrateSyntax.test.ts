import { describe, expect, it } from 'vitest';
import { migrateParts } from './migrateSyntax';

describe('migrateParts', () => {
  it('finds the one key or the KEYS list, and the AUTH / AUTH2 secrets, a key named AUTH being a key', () => {
    expect(migrateParts(['MIGRATE', 'h', '1', 'k', '0', '10', 'copy', 'auth', 'pw'])).toEqual({ secrets: [8], keys: [3] });
    expect(migrateParts(['MIGRATE', 'h', '1', '', '0', '10', 'AUTH2', 'u', 'pw', 'KEYS', 'a', 'AUTH', 'b'])).toEqual({ secrets: [7, 8], keys: [10, 11, 12] });
    // A line cut short: the secret's place is not there.
    expect(migrateParts(['MIGRATE', 'h', '1', '', '0', '10', 'AUTH'])).toEqual({ secrets: [], keys: [] });
  });
});
