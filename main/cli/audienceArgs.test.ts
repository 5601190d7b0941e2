import { describe, expect, it } from 'vitest';
import { parseAudienceArgs } from './audienceArgs';
import { parseDemoDataArgs } from './demoDataArgs';

const URL = ['--url', 'redis://127.0.0.1:6390/2'];
const Q = [...URL, '--where', 'gender=f', '--from', '2024-01-01', '--to', '2024-01-31'];
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('accepted');
};

describe('cacheboard audience flags', () => {
  it('defaults to every strategy, 10 trials after 1 warm-up, the default layout', () => {
    const a = parseAudienceArgs(Q, {});
    expect(a.settings).toMatchObject({
      where: 'gender=f',
      from: '2024-01-01',
      to: '2024-01-31',
      strategies: ['bitmap-lua', 'bitmap-pipeline', 'sets', 'zunionstore'],
      trials: 10,
      warmup: 1,
    });
    expect(a.settings.layout).toMatchObject({ bitmapAttr: 'attr:{name}:{value}', scratchPrefix: 'cacheboard:trial:audience:' });
    expect(a.json).toBe(false);
  });

  it('takes a list of strategies, a hash tag and templates', () => {
    const a = parseAudienceArgs(
      [...Q, '--strategy', 'sets,bitmap-lua', '--trials', '3', '--hash-tag', 'aud', '--layout', '{"userDays":"u:{id}:d"}', '--json'],
      {},
    );
    expect(a.settings.strategies).toEqual(['sets', 'bitmap-lua']);
    expect(a.settings.layout).toMatchObject({ hashTag: 'aud', userDays: 'u:{id}:d' });
    expect(a.json).toBe(true);
  });

  it('names the flag of every refusal', () => {
    expect(refusal(() => parseAudienceArgs([...Q, '--strategy', 'magic'], {}))).toMatchObject({ field: 'strategy' });
    expect(refusal(() => parseAudienceArgs([...URL, '--where', 'x=1', '--from', '2024-01-01'], {}))).toMatchObject({ field: 'to' });
    expect(refusal(() => parseAudienceArgs([...URL, '--where', 'x=1', '--from', '2024-13-01', '--to', '2024-12-01'], {}))).toMatchObject({ field: 'from' });
    expect(refusal(() => parseAudienceArgs([...URL, '--where', 'x=1', '--from', '2020-01-01', '--to', '2023-12-31'], {}))).toMatchObject({
      field: 'to',
      message: expect.stringContaining('at most 1096 (3 years)'),
    });
    expect(refusal(() => parseAudienceArgs([...Q, '--scratch-prefix', 'a b'], {}))).toMatchObject({ field: 'scratch-prefix' });
    expect(refusal(() => parseAudienceArgs([...Q, '--layout', '{"setAttr":"s:{name}"}'], {}))).toMatchObject({
      field: 'layout',
      message: expect.stringContaining('{name} and {value} once each'),
    });
    expect(refusal(() => parseAudienceArgs([...Q, '--layout', 'nope'], {}))).toMatchObject({ field: 'layout' });
    expect(refusal(() => parseAudienceArgs([...Q, '--trials', '0'], {}))).toMatchObject({ field: 'trials' });
  });
});

describe('cacheboard demo-data flags', () => {
  it('defaults to 100,000 users × 30 days, seed 1, every layout', () => {
    expect(parseDemoDataArgs(URL, {}).settings).toMatchObject({
      users: 100_000,
      days: 30,
      seed: 1,
      start: '2024-01-01',
      layouts: ['bitmap', 'set', 'zset'],
      overwrite: false,
    });
    expect(parseDemoDataArgs([...URL, '--layouts', 'bitmap,zset', '--overwrite'], {}).settings).toMatchObject({ layouts: ['bitmap', 'zset'], overwrite: true });
  });

  it('names the flag of every refusal', () => {
    expect(refusal(() => parseDemoDataArgs([...URL, '--users', '20000000'], {}))).toMatchObject({ field: 'users' });
    expect(refusal(() => parseDemoDataArgs([...URL, '--layouts', 'hash'], {}))).toMatchObject({ field: 'layouts' });
    expect(refusal(() => parseDemoDataArgs([...URL, '--start', 'soon'], {}))).toMatchObject({ field: 'start' });
  });
});
