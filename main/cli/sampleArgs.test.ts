import { describe, expect, it } from 'vitest';
import { AppError } from '../../app/errors';
import { parseSampleArgs } from './sampleArgs';

const url = ['--url', 'redis://127.0.0.1:6390/2'];
const fieldOf = (argv: string[]) => {
  try {
    parseSampleArgs(argv, {});
  } catch (e) {
    return e instanceof AppError ? e.field : 'not an AppError';
  }
  return 'no error';
};

describe('cacheboard sample flags', () => {
  it('defaults to a 10,000-key sample with sampled MEMORY USAGE', () => {
    expect(parseSampleArgs(url, {})).toEqual({
      url: 'redis://127.0.0.1:6390/2',
      json: false,
      settings: { method: 'sample', samples: 10_000, scanCount: 1000, pauseMs: 0, memorySamples: 5 },
    });
  });

  it('--full makes a census, with its pattern, SCAN COUNT and pause', () => {
    const a = parseSampleArgs([...url, '--full', '--match', 'user:*', '--scan-count', '5000', '--pause-ms', '2', '--memory-samples', '0', '--json'], {});
    expect(a.settings).toEqual({ method: 'census', samples: 10_000, match: 'user:*', scanCount: 5000, pauseMs: 2, memorySamples: 0 });
    expect(a.json).toBe(true);
  });

  it('takes the URL from REDIS_URL', () => {
    expect(parseSampleArgs([], { REDIS_URL: 'redis://h:1/0' }).url).toBe('redis://h:1/0');
  });

  it.each([
    [['--samples', '5'], 'url'],
    [[...url, '--samples', '0'], 'samples'],
    [[...url, '--samples', 'many'], 'samples'],
    [[...url, '--samples', '2000000'], 'samples'],
    [[...url, '--samples', '10', '--full'], 'samples'],
    [[...url, '--match', 'a*'], 'match'],
    [[...url, '--full', '--match', 'x'.repeat(300)], 'match'],
    [[...url, '--full', '--scan-count', '5'], 'scan-count'],
    [[...url, '--pause-ms=-1'], 'pause-ms'],
    [[...url, '--memory-samples', '1.5'], 'memory-samples'],
  ])('%j is refused naming --%s', (argv, field) => {
    expect(fieldOf(argv)).toBe(field);
  });

  it('refuses an unknown flag with the usage', () => {
    expect(() => parseSampleArgs([...url, '--fast'], {})).toThrow(/Unknown option '--fast'[\s\S]*Usage: cacheboard sample/);
  });
});
