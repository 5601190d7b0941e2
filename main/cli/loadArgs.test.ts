import { describe, expect, it } from 'vitest';
import { AppError } from '../../app/errors';
import { parseLoadArgs } from './loadArgs';

const url = ['--url', 'redis://127.0.0.1:6390/2'];
const fieldOf = (argv: string[]) => {
  try {
    parseLoadArgs(argv, {});
  } catch (e) {
    return e instanceof AppError ? e.field : 'not an AppError';
  }
  return 'no error';
};

describe('cacheboard load flags', () => {
  it('builds a mapping from the tabular flags', () => {
    const a = parseLoadArgs(['f.csv', ...url, '--key', 'u:{id}', '--type', 'zset', '--member', 'm', '--score', 's', '--ttl', '60'], {});
    expect(a.mapping).toEqual({ key: 'u:{id}', type: 'zset', member: 'm', score: 's', ttl: 60 });
    expect(a.mode).toBe('swap');
  });

  it('guards against replacing live data unless told otherwise', () => {
    expect(parseLoadArgs(['f.resp', ...url], {})).toMatchObject({ allowEmpty: false, maxShrink: 50, allowEvictionRisk: false, allowLiveWrites: false });
    expect(parseLoadArgs(['f.resp', ...url, '--allow-empty', '--max-shrink', '90', '--allow-eviction-risk', '--allow-live-writes'], {})).toMatchObject({
      allowEmpty: true,
      maxShrink: 90,
      allowEvictionRisk: true,
      allowLiveWrites: true,
    });
  });

  it('takes the URL from REDIS_URL', () => {
    expect(parseLoadArgs(['f.resp'], { REDIS_URL: 'redis://h:1/0' }).url).toBe('redis://h:1/0');
  });

  it.each([
    [['f.csv'], 'url'],
    [['f.csv', ...url, '--mode', 'yolo'], 'mode'],
    [['f.csv', ...url, '--max-errors=-1'], 'max-errors'],
    [['f.csv', ...url, '--max-errors', '1.5'], 'max-errors'],
    [['f.csv', ...url, '--key', 'u:{id}', '--type', 'zset', '--member', 'm'], 'score'],
    [['f.csv', ...url, '--key', 'u:{id}'], 'value'],
    [['f.csv', ...url, '--staging-db', 'x'], 'staging-db'],
    [['f.csv', ...url, '--max-shrink', '101'], 'max-shrink'],
    [['f.csv', ...url, '--max-shrink', '10%'], 'max-shrink'],
    [['a', 'b', ...url], 'file'],
  ])('%j is refused naming --%s', (argv, field) => {
    expect(fieldOf(argv)).toBe(field);
  });
});
