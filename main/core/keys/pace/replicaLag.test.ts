import { describe, expect, it } from 'vitest';
import { replicaBehind } from './replicaLag';

const info = (offset: number, ...replicas: string[]): string =>
  ['# Replication', 'role:master', `connected_slaves:${replicas.length}`, ...replicas.map((r, i) => `slave${i}:${r}`), `master_repl_offset:${offset}`, ''].join(
    '\r\n',
  );

describe('replicaBehind', () => {
  it('names the online replica furthest behind when it is past the limit', () => {
    const text = info(20_000_000, 'ip=10.0.0.1,port=6380,state=online,offset=19990000,lag=0', 'ip=10.0.0.2,port=6380,state=online,offset=7100000,lag=1');
    expect(replicaBehind(text, 10 * 1024 * 1024)).toBe('replica 10.0.0.2:6380 is 12.3 MB behind (limit 10 MB)');
  });

  it('is null within the limit, with no replica, and for a replica still in its first sync', () => {
    expect(replicaBehind(info(5000, 'ip=10.0.0.1,port=6380,state=online,offset=4000,lag=0'), 1000)).toBeNull();
    expect(replicaBehind(info(5000), 0)).toBeNull();
    expect(replicaBehind(info(5_000_000, 'ip=10.0.0.1,port=6380,state=wait_bgsave,offset=0,lag=0'), 1000)).toBeNull();
  });
});
