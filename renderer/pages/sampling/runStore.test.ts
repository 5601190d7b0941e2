import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../lib/storageTestKit';
import { readRun, writeRun, type KeptRun } from './runStore';

const run = (profileId: string, jobId = `sample_${profileId}xx`): KeptRun => ({
  jobId,
  profileId,
  profileName: profileId.toUpperCase(),
  method: 'census',
  db: 0,
});

describe('runStore', () => {
  it('keeps one last run per profile', () => {
    const s = memoryStorage();
    writeRun('a', run('a'), s);
    writeRun('b', run('b'), s);
    writeRun('a', run('a', 'sample_second'), s);
    expect(readRun('a', s)?.jobId).toBe('sample_second');
    expect(readRun('b', s)?.jobId).toBe('sample_bxx');
    writeRun('a', undefined, s);
    expect(readRun('a', s)).toBeUndefined();
    expect(readRun('b', s)).toBeDefined();
  });

  it('ignores junk, a run filed under another profile, and storage that throws', () => {
    const s = memoryStorage();
    s.setItem('cacheboard.sampling.runs', JSON.stringify({ a: { jobId: 1 }, b: run('c') }));
    expect(readRun('a', s)).toBeUndefined();
    expect(readRun('b', s)).toBeUndefined();
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => undefined,
    };
    expect(readRun('a', broken)).toBeUndefined();
    expect(() => writeRun('a', run('a'), broken)).not.toThrow();
  });
});
