import { describe, expect, it } from 'vitest';
import { memoryStorage as memory } from '../../lib/storageTestKit';
import { readJob, writeJob, type KeptJob } from './jobStore';

const job: KeptJob = { jobId: 'load_abcd', file: 'users.csv', mode: 'swap', targetDb: 0, profileName: 'local' };

describe('jobStore', () => {
  it('keeps the followed job and forgets it', () => {
    const s = memory();
    writeJob(job, s);
    expect(readJob(s)).toEqual(job);
    writeJob(undefined, s);
    expect(readJob(s)).toBeUndefined();
  });

  it('ignores junk and storage that throws', () => {
    const s = memory();
    s.setItem('cacheboard.bulk.job', '{"jobId":1}');
    expect(readJob(s)).toBeUndefined();
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
    };
    expect(readJob(broken)).toBeUndefined();
  });
});
