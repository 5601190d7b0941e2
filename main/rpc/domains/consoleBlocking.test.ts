import { describe, expect, it } from 'vitest';
import { clientsNamed, eventually } from '../../../testing/redis';
import { RUNS_PER_USER } from '../../core/console/run/consoleRuns';
import { onlyReply, useConsoleOnServer } from './consoleRpcTestKit';

const { admin, rpc } = useConsoleOnServer();

const blocked = async () => (await clientsNamed(admin(), 'cacheboard:console:p-block')).filter((l) => / cmd=blpop /.test(l));
const consoleClients = () => clientsNamed(admin(), 'cacheboard:console:p');

describe('a blocking command in the console', () => {
  it('runs on a connection of its own, and console.cancel closes it', async () => {
    await rpc().done('ops', { line: 'PING' });
    const before = (await consoleClients()).length;
    const running = rpc()
      .run('ops', { line: 'BLPOP queue 0', runId: 'blpop-1' })
      .catch((e: unknown) => e);
    expect(await eventually(async () => (await blocked()).length === 1)).toBe(true);
    // The console's own connection is free meanwhile.
    expect(onlyReply(await rpc().done('ops', { line: 'PING' }))).toEqual({ t: 'simple', v: 'PONG' });
    expect(await rpc().as('ops').invoke('console.cancel', { consoleId: 'console-1', runId: 'blpop-1' })).toEqual({ cancelled: true });
    expect(await running).toMatchObject({ code: 'CANCELLED' });
    expect(await eventually(async () => (await consoleClients()).length === before)).toBe(true);
    expect(await blocked()).toEqual([]);
    // Nothing to cancel any more; another user cannot cancel a run of ours either.
    expect(await rpc().as('ops').invoke('console.cancel', { consoleId: 'console-1', runId: 'blpop-1' })).toEqual({ cancelled: false });
  });

  it('is stopped at its timeout, its connection closed', async () => {
    const before = (await consoleClients()).length;
    const started = Date.now();
    const e = await rpc().refusal('ops', { line: 'BLPOP queue 0', timeoutMs: 300 });
    expect(e).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('300 ms') });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(await eventually(async () => (await blocked()).length === 0 && (await consoleClients()).length === before)).toBe(true);
  });

  it('returns what it waited for, and closes its connection after', async () => {
    const running = rpc().done('ops', { line: 'BLPOP queue2 5' });
    expect(await eventually(async () => (await blocked()).length === 1)).toBe(true);
    await admin().rpush('queue2', 'job-1');
    expect(onlyReply(await running)).toMatchObject({ t: 'array', items: [{ v: 'queue2' }, { v: 'job-1' }] });
    expect(await eventually(async () => (await clientsNamed(admin(), 'cacheboard:console:p-block')).length === 0)).toBe(true);
  });

  it('stays on the console connection inside MULTI, where it does not block', async () => {
    await rpc().done('ops', { line: 'MULTI' });
    expect(onlyReply(await rpc().done('ops', { line: 'BLPOP queue3 0' }))).toEqual({ t: 'simple', v: 'QUEUED' });
    expect(onlyReply(await rpc().done('ops', { line: 'EXEC' }))).toMatchObject({ t: 'array', items: [{ t: 'null' }] });
  });

  it(`runs at most ${RUNS_PER_USER} commands of a user at once`, async () => {
    const runs = Array.from({ length: RUNS_PER_USER }, (_, i) =>
      rpc()
        .run('ops', { line: 'BLPOP many 0', runId: `many-${i}` })
        .catch((e: unknown) => e),
    );
    expect(await eventually(async () => (await blocked()).length === RUNS_PER_USER)).toBe(true);
    await expect(rpc().refusal('ops', { line: 'GET x' })).resolves.toMatchObject({ code: 'RATE_LIMITED' });
    // Another user's commands are counted apart.
    await expect(rpc().done('analyst', { line: 'GET x' })).resolves.toMatchObject({ status: 'done' });
    for (let i = 0; i < RUNS_PER_USER; i++)
      await rpc()
        .as('ops')
        .invoke('console.cancel', { consoleId: 'console-1', runId: `many-${i}` });
    expect((await Promise.all(runs)).every((e) => (e as { code?: string }).code === 'CANCELLED')).toBe(true);
    expect(await eventually(async () => (await blocked()).length === 0)).toBe(true);
  });
});
