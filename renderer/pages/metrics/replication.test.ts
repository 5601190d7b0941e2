import { describe, expect, it } from 'vitest';
import { LAG_BYTES_THRESHOLD, linkOf, masterOf, replicaLink } from './replication';
import { down, master, replica } from '../../lib/nodesTestKit';

describe('replication links', () => {
  it('is up with the lag the master reports', () => {
    const l = linkOf(replica('r:1', 'm:1'), master('m:1', [{ address: 'r:1', lagBytes: 10, lagSeconds: 1 }]));
    expect(l).toEqual({ state: 'up', lagBytes: 10, lagSeconds: 1, detail: 'online' });
  });

  it('is down when either end is down or the replica says so', () => {
    expect(linkOf(down('r:1'), master('m:1')).state).toBe('down');
    expect(linkOf(replica('r:1', 'm:1'), down('m:1')).state).toBe('down');
    const r = replica('r:1', 'm:1', 'down');
    r.replication = { ...r.replication!, masterLinkDownSinceSeconds: 42 };
    expect(linkOf(r, master('m:1'))).toMatchObject({ state: 'down', downSeconds: 42 });
  });

  it('is syncing while the master has not got the replica online', () => {
    expect(linkOf(replica('r:1', 'm:1'), master('m:1', [{ address: 'r:1', state: 'wait_bgsave' }])).state).toBe('sync');
  });

  it('is lagging past the thresholds the page asks alerts for', () => {
    const m = master('m:1', [{ address: 'r:1', lagBytes: LAG_BYTES_THRESHOLD + 1 }]);
    expect(linkOf(replica('r:1', 'm:1'), m).state).toBe('lagging');
  });

  it('finds the master by the replica list when the replica names it otherwise', () => {
    const samples = [master('10.0.0.1:6379', [{ address: 'r:1' }]), replica('r:1', 'redis-master:6379')];
    expect(masterOf('r:1', 'redis-master:6379', samples)?.address).toBe('10.0.0.1:6379');
  });

  it('has no link for a master', () => {
    expect(replicaLink('m:1', undefined, [master('m:1')])).toBeUndefined();
    expect(replicaLink('r:1', 'm:1', [master('m:1', [{ address: 'r:1' }]), replica('r:1', 'm:1')])?.state).toBe('up');
  });
});
