import { describe, expect, it } from 'vitest';
import { AppError } from '../../../app/errors';
import { entryStatus } from './entryStatus';
import type { Entry, EntryState } from './useConsoleRuns';

const entry = (state: EntryState): Entry => ({
  id: 'e1',
  line: 'HSET h f v',
  typed: 'HSET h f v',
  db: 0,
  settings: { target: { kind: 'auto' }, protocol: 3, raw: false },
  state,
});
const node = (ms: number, t: 'error' | 'integer') => ({
  address: 'a:1',
  role: 'master' as const,
  ms,
  reply: t === 'error' ? { t, v: 'ERR x' } : { t, v: '1' },
});

describe('entryStatus: one sentence for a screen reader', () => {
  it('says how a command ended, never its reply', () => {
    const done = (replies: ReturnType<typeof node>[]) =>
      entry({ kind: 'done', result: { status: 'done', line: 'HSET h f v', command: 'HSET', replies, db: 0, protocol: 3 } });
    expect(entryStatus(done([node(0.42, 'integer')]))).toBe('HSET done in 0.42 ms.');
    expect(entryStatus(done([node(1, 'integer'), node(12.3, 'error'), node(2, 'error')]))).toBe('HSET done on 3 nodes in 12.3 ms, 2 error replies.');
    expect(entryStatus(done([node(1, 'error')]))).toBe('HSET done in 1.0 ms, an error reply.');
  });

  it('says what a held or refused command needs', () => {
    expect(
      entryStatus(
        entry({ kind: 'held', result: { status: 'held', line: 'FLUSHALL', command: 'FLUSHALL', reason: 'dangerous', why: '…', confirmWith: 'FLUSHALL' } }),
      ),
    ).toBe('FLUSHALL held, not run: type FLUSHALL back to run it.');
    expect(entryStatus(entry({ kind: 'failed', error: new AppError('FORBIDDEN', 'Analysts may run only @read commands.') }))).toBe(
      'Not run: Analysts may run only @read commands.',
    );
    expect(entryStatus(undefined)).toBe('');
  });
});
