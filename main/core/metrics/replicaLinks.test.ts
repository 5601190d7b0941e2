import { describe, expect, it } from 'vitest';
import { deriveSample } from './derive';
import { infoFixture } from './infoTestKit';
import { joinReplicaLinks } from './replicaLinks';

describe('joinReplicaLinks', () => {
  it("uses a replica's own, fresher offset over the one it last acknowledged", () => {
    // The master saw ACKs at 68463 while already at 76586; the replica itself had reached 76586.
    const master = deriveSample('127.0.0.1:44335', 1, infoFixture('master-second')).sample;
    const replica = deriveSample('127.0.0.1:36233', 1, infoFixture('replica-link-down')).sample;
    const [m] = joinReplicaLinks([master, replica], (a) => a);
    expect(m?.replication?.replicas[0]).toMatchObject({ address: '127.0.0.1:36233', offset: 76586, lagBytes: 0 });
    // The other replica did not answer this tick: its acknowledged offset stands.
    expect(m?.replication?.replicas[1]).toMatchObject({ address: '127.0.0.1:35437', offset: 68463, lagBytes: 8123 });
  });

  it('rewrites addresses to the names the nodes are listed under', () => {
    const master = deriveSample('localhost:44335', 1, infoFixture('master-second')).sample;
    const replica = deriveSample('127.0.0.1:36233', 1, infoFixture('replica')).sample;
    const alias = (a: string): string => (a === '127.0.0.1:44335' ? 'localhost:44335' : a);
    const [, r] = joinReplicaLinks([master, replica], alias);
    expect(r?.replication?.masterAddress).toBe('localhost:44335');
  });
});
