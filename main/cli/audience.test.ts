import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { adminClient, closeAdmins, eventually, useRedis } from '../../testing/redis';

const redis = useRedis();
afterAll(closeAdmins);

const cli = runCli;

const url = () => `${redis().url}/0`;
const range = ['--from', '2024-01-01', '--to', '2024-01-05'];

describe('cacheboard demo-data and audience', () => {
  beforeAll(async () => {
    const r = await cli(['demo-data', '--url', url(), '--users', '1500', '--days', '5', '--seed', '4', '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      users: 1500,
      days: 5,
      seed: 4,
      first: '2024-01-01',
      last: '2024-01-05',
      layouts: ['bitmap', 'set', 'zset'],
      outcome: 'done',
    });
  });

  it('demo-data refuses a DB that holds keys without --overwrite', async () => {
    const r = await cli(['demo-data', '--url', url(), '--users', '10']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('db 0 holds');
  });

  it('demo-data stopped by SIGTERM reports what it wrote and exits 143', async () => {
    const db1 = await adminClient(redis(), { db: 1 });
    const r = await cli(['demo-data', '--url', `${redis().url}/1`, '--users', '2000000', '--days', '30', '--json'], (child) => {
      void eventually(async () => (await db1.dbsize()) > 0, 20_000).then(() => child.kill('SIGTERM'));
    });
    expect(r.code).toBe(143);
    expect(JSON.parse(r.out)).toMatchObject({ users: 2_000_000, outcome: 'cancelled' });
    await db1.flushdb();
  });

  it('audience --json prints the documented shape with counts that match', async () => {
    const r = await cli([
      'audience',
      '--url',
      url(),
      '--where',
      'gender=f AND (region=SA OR region=MA) AND NOT interest:news',
      ...range,
      '--trials',
      '2',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown> & { days: { day: string; count: number }[]; strategies: Record<string, unknown>[] };
    expect(j).toMatchObject({ counts_match: true, audience_size: expect.any(Number) });
    expect(j.days.map((d) => d.day)).toEqual(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05']);
    expect(j.strategies.map((s) => [s.name, s.skipped])).toEqual([
      ['bitmap-lua', null],
      ['bitmap-pipeline', null],
      ['sets', null],
      ['zunionstore', null],
    ]);
    expect(Object.keys(j.strategies[0] ?? {})).toEqual(expect.arrayContaining(['name', 'min_ms', 'p50_ms', 'p95_ms', 'skipped']));
  });

  it('audience says where an expression breaks, and exits 1', async () => {
    const r = await cli(['audience', '--url', url(), '--where', 'gender=f AND (region=SA', ...range]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('column 24');
  });

  it('audience exits 3 and says so loudly when the strategies disagree', async () => {
    const admin = await adminClient(redis());
    const [id] = await admin.srandmember('active:2024-01-02:set', 1);
    await admin.srem('active:2024-01-02:set', String(id));
    const r = await cli(['audience', '--url', url(), '--where', 'gender=f OR gender=m', ...range, '--strategy', 'bitmap-pipeline,sets', '--trials', '1']);
    expect(r.code).toBe(3);
    expect(r.out).toContain('!!! COUNTS DIFFER: 1 differences');
    expect(r.out).toContain('!!! sets 2024-01-02');
    expect(r.err).toContain('COUNTS DIFFER');
  });
});
