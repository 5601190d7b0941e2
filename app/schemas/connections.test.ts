import { describe, expect, it } from 'vitest';
import { ProfileDraft } from './connections';

function issueOf(input: unknown): { path: string; message: string } | undefined {
  const r = ProfileDraft.safeParse(input);
  if (r.success) return undefined;
  const issue = r.error.issues[0];
  return issue === undefined ? undefined : { path: issue.path.map(String).join('.'), message: issue.message };
}

describe('ProfileDraft topologies', () => {
  it('leaves a profile without topology (or standalone) as it always was', () => {
    const plain = ProfileDraft.parse({ name: 'a', url: 'redis://h:6380/2' });
    expect(plain).toEqual({ name: 'a', host: 'h', port: 6380, db: 2, tls: { enabled: false, rejectUnauthorized: true } });
    expect(ProfileDraft.parse({ name: 'a', url: 'redis://h:6380/2', topology: { kind: 'standalone' } })).toEqual(plain);
  });

  it('makes a cluster profile from a redis:// URL plus seeds: the URL host first, duplicates once, credentials kept', () => {
    const spec = ProfileDraft.parse({
      name: 'c',
      url: 'rediss://ops:pw@10.0.0.1:7000',
      topology: { kind: 'cluster', seeds: ['10.0.0.2:7001', '10.0.0.1:7000', '[::1]:7002', 'node-4'] },
    });
    expect(spec).toMatchObject({ host: '10.0.0.1', port: 7000, db: 0, username: 'ops', password: 'pw', tls: { enabled: true } });
    expect(spec.topology).toEqual({
      kind: 'cluster',
      seeds: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
        { host: 'node-4', port: 6379 },
      ],
    });
  });

  it('takes a cluster from seeds alone, and names the field of each problem', () => {
    expect(ProfileDraft.parse({ name: 'c', topology: { kind: 'cluster', seeds: ['h:7000'] } })).toMatchObject({ host: 'h', port: 7000 });
    expect(issueOf({ name: 'c', topology: { kind: 'cluster', seeds: ['h:7000', 'h:99999'] } })).toEqual({
      path: 'topology.seeds.1',
      message: '"h:99999": port must be between 1 and 65535',
    });
    expect(issueOf({ name: 'c', topology: { kind: 'cluster', seeds: [] } })?.path).toBe('topology.seeds');
    expect(issueOf({ name: 'c', url: 'redis://h:7000/3', topology: { kind: 'cluster' } })).toEqual({
      path: 'db',
      message: expect.stringContaining('SELECT is refused in cluster mode'),
    });
  });

  it("makes a sentinel profile: sentinels (26379 by default) and master name; DB and credentials are the master's", () => {
    const spec = ProfileDraft.parse({
      name: 's',
      url: 'redis://:data-pw@s1:26380/4',
      topology: { kind: 'sentinel', sentinels: ['s2', 's3:26381'], masterName: 'mymaster', sentinelPassword: 'sent-pw' },
    });
    expect(spec).toMatchObject({ host: 's1', port: 26380, db: 4, password: 'data-pw' });
    expect(spec.topology).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26380 },
        { host: 's2', port: 26379 },
        { host: 's3', port: 26381 },
      ],
      masterName: 'mymaster',
      sentinelPassword: 'sent-pw',
    });
    expect(issueOf({ name: 's', topology: { kind: 'sentinel', sentinels: ['s1'], masterName: ' ' } })?.path).toBe('topology.masterName');
    expect(issueOf({ name: 's', topology: { kind: 'sentinel', sentinels: [], masterName: 'm' } })?.path).toBe('topology.sentinels');
    expect(issueOf({ name: 's', topology: { kind: 'sentinel', sentinels: ['a b'], masterName: 'm' } })?.path).toBe('topology.sentinels.0');
  });
});
