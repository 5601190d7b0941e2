import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Name } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import type { AudienceEvent, DemoEvent } from '../../../app/schemas/audience';
import { AudienceJobs } from '../../core/audience/audienceJobs';
import { DemoJobs } from '../../core/audience/demo/demoJobs';
import { AuditLog } from '../../core/audit/auditLog';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { ProfileStore } from '../../core/pool/profileStore';
import { specFor } from '../../../testing/profiles';
import { useRedis } from '../../../testing/redis';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../memoryWire';
import { audienceHandlers } from './audience';

const redis = useRedis();
const dir = mkdtempSync(join(tmpdir(), 'cb-audience-rpc-'));
const historyFile = join(dir, 'audience-history.json');
const audience = { jobs: new AudienceJobs(historyFile), demo: new DemoJobs() };
const clients: Partial<Record<Role, RpcClient>> = {};
const as = (role: Role) => clients[role] as RpcClient;

beforeAll(() => {
  const profiles = new ProfileStore({
    dataDir: dir,
    secretBox: noSecretBox('tests'),
    readOnly: [{ id: 'local', source: 'config', spec: specFor(redis()) }],
  });
  // Only the audience entries are under test; the rest refuse loudly.
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const audit = new AuditLog(join(dir, 'audit.log'));
  const dispatcher = new Dispatcher({ ...unused, ...audienceHandlers({ profiles, audience, audit }) } as Handlers, { streamIntervalMs: 10 });
  for (const role of ['analyst', 'ops'] as const) {
    const { server, client: end } = createMemoryWirePair();
    dispatcher.attach(server, { role, user: role });
    const client = new RpcClient((m) => end.send(m));
    end.onMessage((m) => client.receive(m));
    clients[role] = client;
  }
});
afterAll(async () => {
  await audience.jobs.cancelAll();
  await audience.demo.cancelAll();
  rmSync(dir, { recursive: true, force: true });
});

interface StreamHandlers<E> {
  onEvents(batch: E[]): void;
  onEnd(error?: AppError): void;
}

/** Collects a stream's events until the server ends it. */
function collect<E>(subscribe: (h: StreamHandlers<E>) => void): Promise<{ events: E[]; error: AppError | undefined }> {
  return new Promise((resolve) => {
    const events: E[] = [];
    subscribe({ onEvents: (batch) => events.push(...batch), onEnd: (error) => resolve({ events, error }) });
  });
}
const follow = (jobId: string) => collect<AudienceEvent>((h) => as('analyst').subscribe('audience.progress', { jobId }, h));
const followDemo = (jobId: string) => collect<DemoEvent>((h) => as('ops').subscribe('audience.demoProgress', { jobId }, h));

describe('audience over the contract', () => {
  it('an analyst may not load demo data; ops can, and follow it to the end (audited)', async () => {
    await expect(as('analyst').invoke('audience.demoData', { profileId: 'local' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const { jobId } = await as('ops').invoke('audience.demoData', { profileId: 'local', users: 2_000, days: 14, seed: 3 });
    const { events, error } = await followDemo(jobId);
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ kind: 'done', report: { users: 2_000, days: 14, first: '2024-01-01', last: '2024-01-14' } });
    const audit = readFileSync(join(dir, 'audit.log'), 'utf8');
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
  });

  it('checks an expression: normalized form, the error position, unknown terms', async () => {
    const ok = await as('analyst').invoke('audience.parse', { where: 'gender=f and (region=NE or region=ZZ)', profileId: 'local' });
    expect(ok).toMatchObject({ valid: true, normalized: 'gender=f AND (region=NE OR region=ZZ)', unknown: [{ name: 'region', value: 'ZZ' }] });
    const bad = await as('analyst').invoke('audience.parse', { where: 'gender=f AND (' });
    expect(bad).toMatchObject({ valid: false, error: { position: 14, found: 'end of input' } });
  });

  it('an analyst runs a trial, follows it to the report, and finds it in the history', async () => {
    const { jobId } = await as('analyst').invoke('audience.start', { profileId: 'local', where: 'gender=f AND age=25-34 AND region=SA', from: '2024-01-01', to: '2024-01-14', trials: 3 });
    const { events, error } = await follow(jobId);
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
    expect(new AudienceJobs(historyFile).history('local')[0]).toEqual(reports[0]);
  });

  it('refuses bad input by field before any job starts', async () => {
    const base = { profileId: 'local', where: 'gender=f', from: '2024-01-01', to: '2024-01-14' };
    await expect(as('analyst').invoke('audience.start', { ...base, where: 'gender=f AND' })).rejects.toMatchObject({ code: 'VALIDATION', field: 'where', message: expect.stringContaining('column 13') });
    await expect(as('analyst').invoke('audience.start', { ...base, to: '2027-01-02' })).rejects.toMatchObject({ code: 'VALIDATION', field: 'to', message: expect.stringContaining('3 years') });
    await expect(as('analyst').invoke('audience.start', { ...base, from: '2024-02-30' })).rejects.toMatchObject({ code: 'VALIDATION', field: 'from' });
    await expect(as('analyst').invoke('audience.start', { ...base, layout: { scratchPrefix: 'user:' } })).rejects.toMatchObject({ code: 'VALIDATION', field: 'layout.scratchPrefix' });
    await expect(as('analyst').invoke('audience.start', { ...base, profileId: 'ghost' })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'profileId' });
    await expect(as('analyst').invoke('audience.cancel', { jobId: 'audience_nothere' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
