import { describe, expect, it } from 'vitest';
import { ClientId } from './clients';
import { JobId, ProfileId } from './common';
import { KeysJobId } from './keys';

/* The ids are branded: tsc (npm run typecheck) fails this file if one kind of id is taken for another. */

function wantsProfile(id: ProfileId): string {
  return id;
}

function wantsJob(id: JobId): string {
  return id;
}

describe('ids as types', () => {
  it('a profile id passes where a profile id is wanted, and is still the string on the wire', () => {
    const id = ProfileId.parse('cache-01');
    expect(wantsProfile(id)).toBe('cache-01');
  });

  it('a job id, a client id or a plain string is no profile id, though each is a string at run time', () => {
    const job = KeysJobId.parse({ jobId: 'keys_AbCd1234' }).jobId;
    const client = ClientId.parse('42');
    // @ts-expect-error a JobId is not a ProfileId
    expect(wantsProfile(job)).toBe('keys_AbCd1234');
    // @ts-expect-error a ClientId is not a ProfileId
    expect(wantsProfile(client)).toBe('42');
    // @ts-expect-error a string that no schema parsed is not a ProfileId
    expect(wantsProfile('cache-01')).toBe('cache-01');
  });

  it('a profile id is no job id', () => {
    const id = ProfileId.parse('cache-01');
    // @ts-expect-error a ProfileId is not a JobId
    expect(wantsJob(id)).toBe('cache-01');
    expect(wantsJob(JobId.parse('load_AbCd1234'))).toBe('load_AbCd1234');
  });

  it('each kind of job accepts only its own prefix', () => {
    expect(KeysJobId.safeParse({ jobId: 'load_AbCd1234' }).success).toBe(false);
    expect(JobId.safeParse('cache-01').success).toBe(false);
  });
});
