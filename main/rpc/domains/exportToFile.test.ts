import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../app/contract';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import { toAppError } from '../../core/pool/redisErrors';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, startRedis, type RedisProcess } from '../../../testing/redis';
import { Dispatcher } from '../dispatcher';
import { domainRpcBase, roleClients, type DomainRpcBase } from './domainRpcTestKit';
import { exportHandlers } from './export';
import { jobHandlers } from './jobs';

/**
 * The desktop's export: no browser download, the main process's save dialog picks the file
 * (here a function answering as the dialog would) and the runtime writes it whole or not at all.
 */
let server: RedisProcess;
let base: DomainRpcBase;
let answer: string | null = null;
const jobs = createJobs();
let as: ReturnType<typeof roleClients>;

beforeAll(async () => {
  server = await startRedis();
  const admin = await adminClient(server);
  for (let i = 0; i < 500; i++) await admin.set(`ex:${String(i).padStart(4, '0')}`, `value ${i}`);
  await admin.hset('ex:hash', 'f', 'v');
  await admin.set('other', 'not exported');
  base = domainRpcBase('cb-export-file-', [{ id: 'p', source: 'config', spec: specFor(server) }]);
  const dispatcher = new Dispatcher(
    base.handlers({ ...exportHandlers({ ...base, jobs, pickSaveFile: () => Promise.resolve(answer) }), ...jobHandlers(jobs) }),
    { mapError: (e) => toAppError(e) },
  );
  as = roleClients(dispatcher);
}, 30_000);
afterAll(async () => {
  cancelAllJobs(jobs);
  await base.close();
  await closeAdmins();
  await server.stop();
});

function outcome(jobId: string): Promise<StreamEvent<'export.progress'>> {
  return new Promise((resolve, reject) => {
    let last: StreamEvent<'export.progress'> | undefined;
    as('ops').subscribe(
      'export.progress',
      { jobId },
      {
        onEvents: (batch) => (last = batch.at(-1) ?? last),
        onEnd: (error) => (error !== undefined || last === undefined ? reject(error ?? new Error('no event')) : resolve(last)),
      },
    );
  });
}

const glob = Buffer.from('ex:*').toString('base64');
const start = { profileId: 'p', source: { kind: 'pattern' as const, match: glob }, format: 'ndjson' as const };

describe('export.start on the desktop', () => {
  it('writes the file the save dialog chose, whole, with every matching key and no other; audited with the path', async () => {
    answer = join(base.dir, 'keys.ndjson');
    const r = await as('ops').invoke('export.start', start);
    expect(r.savedTo).toBe(answer);
    expect(r.download).toBeUndefined();
    const end = await outcome(r.jobId);
    expect(end).toMatchObject({ kind: 'done', counts: { keys: 501 } });
    const lines = readFileSync(answer, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string });
    expect(new Set(lines.map((l) => l.key)).size).toBe(501);
    expect(lines.some((l) => l.key === 'other')).toBe(false);
    expect(readdirSync(base.dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    const audit = base.auditEntries().filter((e) => e.action === 'keys.export');
    expect(audit.at(-1)).toMatchObject({ outcome: 'ok', detail: expect.stringContaining(answer) });
  });

  it('a cancelled dialog exports nothing and says so; a folder that is gone is named', async () => {
    answer = null;
    await expect(as('ops').invoke('export.start', start)).rejects.toMatchObject({ code: 'CANCELLED', field: 'savedTo' });
    answer = join(base.dir, 'no-such-folder', 'keys.ndjson');
    await expect(as('ops').invoke('export.start', start)).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('does not exist') });
  });

  it('a cancelled export leaves the chosen file as it was and no partial file beside it', async () => {
    answer = join(base.dir, 'kept.ndjson');
    writeFileSync(answer, 'the file as it was\n');
    // The server held (CLIENT PAUSE) so the walk is surely under way when the cancel lands.
    await (await adminClient(server)).call('CLIENT', 'PAUSE', '1500', 'ALL');
    const r = await as('ops').invoke('export.start', start);
    await as('ops').invoke('export.cancel', { jobId: r.jobId });
    const end = await outcome(r.jobId);
    expect(end.kind).toBe('cancelled');
    expect(readFileSync(answer, 'utf8')).toBe('the file as it was\n');
    expect(readdirSync(base.dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(existsSync(answer)).toBe(true);
  });
});
