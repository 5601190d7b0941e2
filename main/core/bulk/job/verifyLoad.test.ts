import { describe, expect, it } from 'vitest';
import { verifyLoad, type VerifyInput } from './verifyLoad';

const input = (over: Partial<VerifyInput> = {}): VerifyInput => ({
  mode: 'swap',
  result: { commands: 100, replies: 100, errors: 0 },
  maxErrors: 0,
  expectedKeys: 100,
  untrackedBy: undefined,
  dbsize: 100,
  dbLabel: 'Staging DB 1',
  expiredDuring: 0,
  evictedDuring: 0,
  ...over,
});

describe('verifyLoad', () => {
  it('passes when every command was answered and DBSIZE equals the distinct keys written', () => {
    const v = verifyLoad(input());
    expect(v.ok).toBe(true);
    expect(v.verify).toEqual({ replies: true, keys: 'ok', expectedKeys: 100, dbsize: 100 });
  });

  it('accepts keys that expired (TTL) during the load, and says so', () => {
    const v = verifyLoad(input({ dbsize: 97, expiredDuring: 5 }));
    expect(v.ok).toBe(true);
    expect(v.verify.note).toMatch(/3 fewer keys.*expired \(TTL\)/);
  });

  it('fails a swap whose staging DB is missing keys with no expiry to explain it', () => {
    const v = verifyLoad(input({ dbsize: 90 }));
    expect(v.ok).toBe(false);
    expect(v.verify.keys).toBe('mismatch');
    expect(v.problem).toMatch(/Staging DB 1 holds 90 keys but the input wrote 100/);
  });

  it('treats evictions as data loss even when expiries could explain the gap', () => {
    const v = verifyLoad(input({ dbsize: 99, expiredDuring: 5, evictedDuring: 2 }));
    expect(v.ok).toBe(false);
    expect(v.problem).toMatch(/evicted 2 keys/);
  });

  it('fails when replies are missing', () => {
    const v = verifyLoad(input({ result: { commands: 100, replies: 99, errors: 0 } }));
    expect(v.ok).toBe(false);
    expect(v.verify.replies).toBe(false);
  });

  it('skips the key count for untrackable input and for merge, naming why', () => {
    expect(verifyLoad(input({ untrackedBy: 'DEL' })).verify).toMatchObject({ keys: 'skipped', note: expect.stringMatching(/uses DEL/) });
    expect(verifyLoad(input({ mode: 'merge', dbsize: undefined })).verify).toMatchObject({ keys: 'skipped', note: expect.stringMatching(/merge/) });
  });

  it('only warns about a count mismatch in flush mode, whose data is live already', () => {
    const v = verifyLoad(input({ mode: 'flush', dbsize: 120, dbLabel: 'DB 0' }));
    expect(v.ok).toBe(true);
    expect(v.verify.keys).toBe('mismatch');
    expect(v.warnings.join()).toMatch(/DB 0 holds 20 more keys/);
  });
});
