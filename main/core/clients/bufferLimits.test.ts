import { describe, expect, it } from 'vitest';
import { firstLimit, limitOf, parseBufferLimits } from './bufferLimits';

describe('client-output-buffer-limit', () => {
  it('reads the three classes, slave or replica', () => {
    const l = parseBufferLimits('normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60');
    expect(l).toEqual({
      normal: { hardBytes: 0, softBytes: 0, softSeconds: 0 },
      replica: { hardBytes: 268435456, softBytes: 67108864, softSeconds: 60 },
      pubsub: { hardBytes: 33554432, softBytes: 8388608, softSeconds: 60 },
    });
    expect(parseBufferLimits('normal 1 2 3 replica 4 5 6 pubsub 7 8 9')?.replica.hardBytes).toBe(4);
  });

  it('gives nothing for what does not read as three classes of three numbers', () => {
    for (const v of ['', 'normal 0 0', 'normal 0 0 0 slave 1 1 1', 'normal 0 0 0 slave 1mb 1 1 pubsub 1 1 1', 'normal 0 0 0 other 1 1 1 pubsub 1 1 1']) {
      expect(parseBufferLimits(v), v).toBeUndefined();
    }
  });

  it('cuts at the lower of the limits set; none set is no limit; a master link is held as normal', () => {
    expect(firstLimit({ hardBytes: 100, softBytes: 40, softSeconds: 60 })).toBe(40);
    expect(firstLimit({ hardBytes: 100, softBytes: 0, softSeconds: 0 })).toBe(100);
    expect(firstLimit({ hardBytes: 0, softBytes: 0, softSeconds: 0 })).toBeUndefined();
    const l = parseBufferLimits('normal 1 0 0 slave 2 0 0 pubsub 3 0 0');
    expect(l === undefined ? undefined : [limitOf(l, 'master').hardBytes, limitOf(l, 'replica').hardBytes, limitOf(l, 'pubsub').hardBytes]).toEqual([1, 2, 3]);
  });
});
