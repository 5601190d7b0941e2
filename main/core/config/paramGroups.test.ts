import { describe, expect, it } from 'vitest';
import { groupOf } from './paramGroups';

describe('groups', () => {
  it('puts a parameter no rule names in others, and the first rule wins', () => {
    expect(groupOf('some-module-setting')).toBe('others');
    expect(groupOf('cluster-announce-tls-port')).toBe('cluster');
    expect(groupOf('tls-replication')).toBe('security');
    expect(groupOf('replica-lazy-flush')).toBe('replication');
    expect(groupOf('lazyfree-lazy-eviction')).toBe('memory');
    expect(groupOf('aof-use-rdb-preamble')).toBe('persistence');
    expect(groupOf('io-threads')).toBe('clients');
  });
});
