import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../app/define';
import type { RpcClient } from '../../../app/rpcClient';
import { AudienceJobs } from '../../core/audience/audienceJobs';
import { specFor } from '../../../testing/profiles';
import { useRedis } from '../../../testing/redis';
import { audienceRpc, follow, type AudienceRpc } from './audienceRpcTestKit';

const redis = useRedis();
let rpc: AudienceRpc;
const as = (role: Role): RpcClient => rpc.as(role);

beforeAll(() => {
  rpc = audienceRpc([{ id: 'local', source: 'config', spec: specFor(redis()) }]);
});
afterAll(() => rpc.close());

const followTrial = (jobId: string) => follow(as('analyst'), 'audience.progress', jobId);
const followDemo = (jobId: string) => follow(as('ops'), 'audience.demoProgress', jobId);

describe('audience over the contract', () => {
  it('an analyst may not load demo data; ops can, and follow it to the end (audited)', async () => {
    await expect(as('analyst').invoke('audience.demoData', { profileId: 'local' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const { jobId } = await as('ops').invoke('audience.demoData', { profileId: 'local', users: 2_000, days: 14, seed: 3 });
    const { events, error } = await followDemo(jobId);
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ kind: 'done', report: { users: 2_000, days: 14, first: '2024-01-01', last: '2024-01-14' } });
    const audit = readFileSync(join(rpc.dir, 'audit.log'), 'utf8');
    expect(audit).toContain('"action":"audience.demoData"');
    expect(audit).toContain('"outcome":"ok"');
  });

  it('lists the attributes, values and days the builder offers', async () => {
    const a = await as('analyst').invoke('audience.attributes', { profileId: 'local' });
    expect(a.attributes.map((x) => x.name)).toEqual(['age', 'gender', 'income', 'interest', 'region']);
    const gender = a.attributes.find((x) => x.name === 'gender');
    expect(gender?.values.map((v) => [v.value, v.layouts])).toEqual([
      ['f', ['bitmap', 'set']],
      ['m', ['bitmap', 'set']],
    ]);
    expect((gender?.values[0]?.users ?? 0) + (gender?.values[1]?.users ?? 0)).toBe(2_000);
    expect(a.days).toEqual({ first: '2024-01-01', last: '2024-01-14', count: 14 });
    expect(a.layouts).toEqual({ bitmap: true, set: true, zset: true });
    expect(a.truncated).toBe(false);
    expect({ skipped: a.skipped, warnings: a.warnings }).toEqual({ skipped: 0, warnings: [] });
  });

  it('checks an expression: normalized form, the error position, unknown terms', async () => {
    const ok = await as('analyst').invoke('audience.parse', { where: 'gender=f and (region=NE or region=ZZ)', profileId: 'local' });
    expect(ok).toMatchObject({ valid: true, normalized: 'gender=f AND (region=NE OR region=ZZ)', unknown: [{ name: 'region', value: 'ZZ' }] });
    const bad = await as('analyst').invoke('audience.parse', { where: 'gender=f AND (' });
    expect(bad).toMatchObject({ valid: false, error: { position: 14, found: 'end of input' } });
  });

  it('ops run a trial, an analyst follows it to the report and finds it in the history', async () => {
    const { jobId } = await as('ops').invoke('audience.start', {
      profileId: 'local',
      where: 'gender=f AND age=25-34 AND region=SA',
      from: '2024-01-01',
      to: '2024-01-14',
      trials: 3,
    });
    const { events, error } = await followTrial(jobId);
    expect(error).toBeUndefined();
    expect(events[0]).toMatchObject({ kind: 'started', strategies: ['bitmap-lua', 'bitmap-pipeline', 'sets', 'zunionstore'], skipped: [] });
    expect(events.filter((e) => e.kind === 'strategy')).toHaveLength(4);
    const end = events.at(-1);
    expect(end).toMatchObject({ kind: 'done', report: { id: jobId, countsMatch: true } });
    if (end?.kind !== 'done') return;
    expect(end.report.days).toHaveLength(14);
    expect(end.report.audienceSize).toBeGreaterThan(0);
    const { reports } = await as('analyst').invoke('audience.history', { profileId: 'local' });
    expect(reports[0]?.id).toBe(jobId);
    // Kept on disk: the next start still has it to compare with.
    expect(new AudienceJobs(rpc.historyFile).history('local')[0]).toEqual(reports[0]);
  });

  it('refuses bad input by field before any job starts', async () => {
    const base = { profileId: 'local', where: 'gender=f', from: '2024-01-01', to: '2024-01-14' };
    await expect(as('analyst').invoke('audience.start', { ...base, where: 'gender=f AND' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'where',
      message: expect.stringContaining('column 13'),
    });
    await expect(as('analyst').invoke('audience.start', { ...base, to: '2027-01-02' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'to',
      message: expect.stringContaining('3 years'),
    });
    await expect(as('analyst').invoke('audience.start', { ...base, from: '2024-02-30' })).rejects.toMatchObject({ code: 'VALIDATION', field: 'from' });
    await expect(as('analyst').invoke('audience.start', { ...base, layout: { scratchPrefix: 'user:' } })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'layout.scratchPrefix',
    });
    await expect(as('analyst').invoke('audience.start', { ...base, profileId: 'ghost' })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'profileId' });
    await expect(as('analyst').invoke('audience.cancel', { jobId: 'audience_nothere' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
