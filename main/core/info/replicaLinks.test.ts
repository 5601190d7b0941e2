import { describe, expect, it } from 'vitest';
import { parseInfo } from './parseInfo';
import { replicaLinksOf } from './replicaLinks';

describe('replicaLinksOf', () => {
  it('reads every slaveN line in order, IPv6 too, and skips one that names no node', () => {
    const info = parseInfo(
      [
        '# Replication',
        'role:master',
        'connected_slaves:3',
        'slave0:ip=10.0.0.2,port=6380,state=online,offset=1234,lag=0',
        'slave1:ip=::1,port=6381,state=wait_bgsave,offset=0,lag=7',
        'slave2:state=online,offset=9',
        'master_repl_offset:1300',
      ].join('\r\n'),
    );
    expect(replicaLinksOf(info)).toEqual([
      { address: '10.0.0.2:6380', state: 'online', offset: 1234, lag: 0 },
      { address: '::1:6381', state: 'wait_bgsave', offset: 0, lag: 7 },
    ]);
    expect(replicaLinksOf(parseInfo('# Replication\r\nrole:slave\r\n'))).toEqual([]);
  });
});
