import { describe, expect, it } from 'vitest';
import { AppError } from '../../app/errors';
import { connectionFlags, specFromFlags, type TopologyFlagValues } from './topologyFlags';

function refusal(v: TopologyFlagValues, env: NodeJS.ProcessEnv = {}): { field?: string | undefined; message: string } {
  try {
    specFromFlags(connectionFlags(v, env));
  } catch (e) {
    if (e instanceof AppError) return { field: e.field, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('topology flags', () => {
  it('--cluster makes the URL host a seed and --seeds adds more; DB 0 only', () => {
    const spec = specFromFlags(connectionFlags({ url: 'redis://:pw@10.0.0.1:7000', cluster: true, seeds: '10.0.0.2:7001, 10.0.0.3:7002' }, {}));
    expect(spec).toMatchObject({ host: '10.0.0.1', port: 7000, db: 0, password: 'pw' });
    expect(spec.topology).toEqual({
      kind: 'cluster',
      seeds: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '10.0.0.3', port: 7002 },
      ],
    });
    expect(refusal({ url: 'redis://h:7000/2', cluster: true })).toMatchObject({ field: 'url', message: expect.stringContaining('cluster mode') });
    expect(refusal({ url: 'redis://h:7000', cluster: true, seeds: 'ok:1,bad:port' })).toEqual({
      field: 'seeds',
      message: '--seeds: "bad:port": port must be between 1 and 65535',
    });
  });

  it("--sentinel and --master-name need no URL; a URL gives the master's credentials and DB and one more sentinel", () => {
    const bare = specFromFlags(connectionFlags({ sentinel: 's1,s2:26380', 'master-name': 'm', 'sentinel-password': 'sp' }, {}));
    expect(bare).toMatchObject({ host: 's1', port: 26379, db: 0 });
    expect(bare.topology).toMatchObject({ kind: 'sentinel', masterName: 'm', sentinelPassword: 'sp' });
    const withUrl = specFromFlags(connectionFlags({ sentinel: 's2', 'master-name': 'm' }, { REDIS_URL: 'redis://:data@s1:26379/4' }));
    expect(withUrl).toMatchObject({ db: 4, password: 'data' });
    expect(withUrl.topology).toMatchObject({
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
    });
  });

  it.each([
    [{ url: 'redis://h', seeds: 'a:1' }, 'seeds'],
    [{ url: 'redis://h', cluster: true, sentinel: 's' }, 'sentinel'],
    [{ url: 'redis://h', 'master-name': 'm' }, 'master-name'],
    [{ sentinel: 's1' }, 'master-name'],
    [{ sentinel: 's1', 'master-name': 'has space' }, 'master-name'],
    [{ url: 'redis://h', 'sentinel-user': 'u' }, 'sentinel-user'],
    [{}, 'url'],
  ] as Array<[TopologyFlagValues, string]>)('%j is refused naming --%s', (v, flag) => {
    expect(refusal(v).field).toBe(flag);
  });
});
