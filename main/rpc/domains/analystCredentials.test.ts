import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../app/define';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import type { ConnectionState } from '../../../app/schemas/connections';
import type { SamplingEvent } from '../../../app/schemas/sampling';
import { readmeAclLine } from '../../../testing/readmeAcl';
import { adminClient, closeAdmins, eventually, startRedis, type RedisProcess } from '../../../testing/redis';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { createRuntime, type Runtime } from '../../runtime';
import { createMemoryWirePair } from '../wireTestKit';

const OPS_PW = 'ops-Secret-7731';
const ANALYST_PW = 'analyst-Secret-5519';
const KEYS = 120;
const dir = mkdtempSync(join(tmpdir(), 'cb-analyst-acl-'));
let redis: RedisProcess;
let admin: Redis;
let runtime: Runtime;
const detach: (() => void)[] = [];

beforeAll(async () => {
  redis = await startRedis({ password: OPS_PW });
  admin = await adminClient(redis, { password: OPS_PW });
  await admin.call('ACL', 'SETUSER', ...readmeAclLine(ANALYST_PW));
  const p = admin.pipeline();
  for (let i = 0; i < KEYS; i++) p.set(`user:${i}`, 'v');
  await p.exec();
  const secret = (name: string, value: string) => {
    writeFileSync(join(dir, name), `${value}\n`, { mode: 0o600 });
    return join(dir, name);
  };
  const server = { host: redis.host, port: redis.port, passwordFile: secret('ops', OPS_PW) };
  writeFileSync(
    join(dir, 'cacheboard.json'),
    JSON.stringify({
      profiles: [
        { id: 'acl', name: 'ACL', ...server, analyst: { username: 'cb-analyst', passwordFile: secret('analyst', ANALYST_PW) } },
        { id: 'wrong', name: 'Wrong analyst password', ...server, analyst: { username: 'cb-analyst', password: 'not-the-password' } },
      ],
    }),
  );
  runtime = await createRuntime({ dataDir: join(dir, 'data'), secretBox: noSecretBox('tests'), configFile: join(dir, 'cacheboard.json') });
});
afterAll(async () => {
  for (const d of detach) d();
  await runtime.close();
  await closeAdmins();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});

function clientFor(role: Role): RpcClient {
  const { server, client: end } = createMemoryWirePair();
  detach.push(runtime.attach(server, { role, user: role }));
  const client = new RpcClient((m) => end.send(m));
  end.onMessage((m) => client.receive(m));
  return client;
}

/** The Redis user of every connection named `name` (CLIENT SETNAME; the pool names its connections). */
async function usersOf(name: string): Promise<string[]> {
  const list = String(await admin.client('LIST')).split('\n');
  return list.filter((l) => l.includes(` name=${name} `)).map((l) => /(?:^| )user=(\S+)/.exec(l)?.[1] ?? '?');
}

function follow(client: RpcClient, jobId: string): Promise<{ events: SamplingEvent[]; error: AppError | undefined }> {
  return new Promise((resolve) => {
    const events: SamplingEvent[] = [];
    client.subscribe('sampling.progress', { jobId }, { onEvents: (b) => events.push(...b), onEnd: (error) => resolve({ events, error }) });
  });
}

describe('a profile with analyst credentials', () => {
  const analyst = clientFor.bind(null, 'analyst');
  const ops = clientFor.bind(null, 'ops');

  it("runs an analyst's INFO, Overview polling and SLOWLOG as the analyst ACL user, ops' as the default user", async () => {
    const a = analyst();
    expect((await a.invoke('server.info', { profileId: 'acl' })).server.version).toMatch(/^\d/);
    expect(await usersOf('cacheboard:monitoring:acl@analyst')).toEqual(['cb-analyst']);
    await ops().invoke('server.info', { profileId: 'acl' });
    expect(await usersOf('cacheboard:monitoring:acl')).toEqual(['default']);

    // The README's line is enough for the whole Overview: INFO ALL polling, SLOWLOG GET, LATENCY LATEST.
    const samples = await new Promise<number>((resolve, reject) => {
      const stop = a.subscribe(
        'metrics.watch',
        { profileId: 'acl', intervalMs: 250 },
        {
          onEvents: (events) => {
            const s = events.find((e) => e.kind === 'samples');
            if (s?.kind === 'samples') {
              stop();
              resolve(s.samples.filter((n) => n.up).length);
            }
          },
          onEnd: (e) => reject(e ?? new Error('metrics.watch ended')),
        },
      );
    });
    expect(samples).toBe(1);
    await expect(a.invoke('metrics.slowlog', { profileId: 'acl', count: 8 })).resolves.toMatchObject({ slowlog: expect.any(Array) });
  });

  it("probes an analyst's census as the analyst user (the README's ACL allows every probe), an ops one as default", async () => {
    const a = analyst();
    const { jobId } = await a.invoke('sampling.start', { profileId: 'acl', method: 'census', scanCount: 10, pauseMs: 100 });
    const run = follow(a, jobId);
    expect(await eventually(async () => (await usersOf(`cacheboard:sampling:${jobId}`)).length > 0)).toBe(true);
    expect(await usersOf(`cacheboard:sampling:${jobId}`)).toEqual(['cb-analyst']);
    const { events, error } = await run;
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ kind: 'done', report: { keysExamined: KEYS, keysMissing: 0 } });

    const o = ops();
    const opsRun = await o.invoke('sampling.start', { profileId: 'acl', method: 'census', scanCount: 10, pauseMs: 100 });
    expect(await eventually(async () => (await usersOf(`cacheboard:sampling:${opsRun.jobId}`)).length > 0)).toBe(true);
    expect(await usersOf(`cacheboard:sampling:${opsRun.jobId}`)).toEqual(['default']);
    await o.invoke('sampling.cancel', { jobId: opsRun.jobId });
  });

  it("tests a saved profile with the credentials the session's calls will use", async () => {
    await expect(analyst().invoke('connections.test', { id: 'acl' })).resolves.toMatchObject({ ok: true });
    await expect(analyst().invoke('connections.test', { id: 'wrong' })).resolves.toMatchObject({ ok: false, error: { code: 'AUTH_FAILED' } });
    await expect(ops().invoke('connections.test', { id: 'wrong' })).resolves.toMatchObject({ ok: true });
  });

  it('shows each role the state of its own connections under the profile id, and no password of either', async () => {
    const states = (role: Role) => {
      const seen = new Map<string, ConnectionState['state']>();
      clientFor(role).subscribe('connections.state', {}, { onEvents: (b) => b.forEach((s) => seen.set(s.profileId, s.state)) });
      return seen;
    };
    const asAnalyst = states('analyst');
    const asOps = states('ops');
    // The analyst's connection to "wrong" fails to sign in; ops' own was never opened.
    await expect(analyst().invoke('server.info', { profileId: 'wrong' })).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    expect(await eventually(() => asAnalyst.get('wrong') === 'error' && asAnalyst.get('acl') === 'ready')).toBe(true);
    expect(asOps.get('wrong')).toBe('idle');
    expect([...asAnalyst.keys(), ...asOps.keys()].sort()).toEqual(['acl', 'acl', 'wrong', 'wrong']);

    const { profiles } = await analyst().invoke('connections.list', {});
    expect(profiles.find((p) => p.id === 'acl')).toMatchObject({ username: 'cb-analyst', hasPassword: true });
    const opsView = await ops().invoke('connections.list', {});
    expect(opsView.profiles.find((p) => p.id === 'acl')?.username).toBeUndefined();
    expect(JSON.stringify([profiles, opsView])).not.toMatch(/Secret|not-the-password/);
  });
});
