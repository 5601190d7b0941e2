import { describe, expect, it } from 'vitest';
import { parseInfo, parseInfoPairs } from './parseInfo';

const excerpt = [
  '# Server',
  'redis_version:7.0.15',
  'executable:/usr/bin/redis-server',
  'config_file:',
  '',
  '# Keyspace',
  'db0:keys=3,expires=1,avg_ttl=9000',
  '',
].join('\r\n');

describe('parseInfo', () => {
  it('groups fields under lowercased section names', () => {
    const s = parseInfo(excerpt);
    expect(Object.keys(s)).toEqual(['server', 'keyspace']);
    expect(s['server']?.['redis_version']).toBe('7.0.15');
  });

  it('splits on the first colon only, keeping colons and empty values in the value', () => {
    const s = parseInfo(excerpt);
    expect(s['server']?.['executable']).toBe('/usr/bin/redis-server');
    expect(s['server']?.['config_file']).toBe('');
  });

  it('accepts LF-only text and keeps lines before any header under ""', () => {
    expect(parseInfo('loading:0\n# Persistence\nrdb_changes_since_last_save:4\n')).toEqual({
      '': { loading: '0' },
      persistence: { rdb_changes_since_last_save: '4' },
    });
  });

  it('ignores garbage lines without a field name', () => {
    expect(parseInfo('# Stats\n:oops\nno colon here\nok:1')).toEqual({ stats: { ok: '1' } });
  });
});

describe('parseInfoPairs', () => {
  it('reads keyspace and replica lines', () => {
    expect(parseInfoPairs('keys=3,expires=1,avg_ttl=9000')).toEqual({ keys: '3', expires: '1', avg_ttl: '9000' });
    expect(parseInfoPairs('ip=127.0.0.1,port=6380,state=online,offset=42,lag=0')['port']).toBe('6380');
  });
});
