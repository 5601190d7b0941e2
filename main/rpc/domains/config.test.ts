import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigParam, ConfigView } from '../../../app/schemas/config';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, startRedis, type RedisProcess } from '../../../testing/redis';
import { startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import { configRpc, type ConfigRpc } from './configRpcTestKit';

// Distinct secrets, so a scan of the replies finds any of them wherever it leaked.
const PASS = 'Pw-requirepass-7f3a91';
const TLS_PASS = 'Pw-tls-key-pass-c0ffee';
const NEW_PASS = 'Pw-new-requirepass-51d2';

const at = (p: RedisProcess) => `${p.host}:${p.port}`;
const param = (view: ConfigView, name: string): ConfigParam => {
  const p = view.params.find((x) => x.name === name);
  if (p === undefined) throw new Error(`no ${name} in the view`);
  return p;
};
const cellOf = (view: ConfigView, name: string, address: string) => param(view, name).cells[view.nodes.findIndex((n) => n.address === address)];

let set: ReplicaSet;
let solo: RedisProcess;
let withFile: RedisProcess;
let fileDir: string;
let rpc: ConfigRpc;
let master: Redis;
let replica: Redis;

beforeAll(async () => {
  set = await startReplicaSet({ replicas: 1, password: PASS });
  solo = await startRedis();
  fileDir = mkdtempSync(join(tmpdir(), 'cb-config-file-'));
  mkdirSync(join(fileDir, 'etc'));
  writeFileSync(join(fileDir, 'etc', 'redis.conf'), '# written by the test\n');
  withFile = await startRedis({ configFile: join(fileDir, 'etc', 'redis.conf') });
  master = await adminClient(set.master, { password: PASS });
  replica = await adminClient(set.replicas[0]!, { password: PASS });
  await master.config('SET', 'tls-key-file-pass', TLS_PASS);
  rpc = configRpc([
    { id: 'rs', source: 'config', spec: specFor(set.master, { name: 'rs', password: PASS }) },
    { id: 'solo', source: 'user', spec: specFor(solo, { name: 'solo' }) },
    { id: 'file', source: 'user', spec: specFor(withFile, { name: 'file' }) },
    // The embedded server's profile, aimed at a test server: only its source differs.
    { id: 'embedded', source: 'embedded', spec: specFor(solo, { name: 'Local (embedded)' }) },
  ]);
}, 30_000);
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
  await Promise.all([set.stop(), solo.stop(), withFile.stop()]);
  rmSync(fileDir, { recursive: true, force: true });
});

describe('config.get', () => {
  it("finds a replica whose maxmemory differs from its master's, and says it matters", async () => {
    const r = at(set.replicas[0]!);
    const m = at(set.master);
    await replica.config('SET', 'maxmemory', '100mb');
    const view = await rpc.call('analyst', 'config.get', { profileId: 'rs' });
    expect(view.nodes.map((n) => [n.address, n.role, n.state, n.master])).toEqual([
      [m, 'master', 'ok', undefined],
      [r, 'replica', 'ok', m],
    ]);
    const maxmemory = param(view, 'maxmemory');
    expect(maxmemory).toMatchObject({ group: 'memory', secret: false, differs: 'matters' });
    expect(cellOf(view, 'maxmemory', m)).toEqual({ value: '0' });
    expect(cellOf(view, 'maxmemory', r)).toMatchObject({ value: '104857600', diff: { against: m, kind: 'matters' } });
    expect(cellOf(view, 'maxmemory', r)?.diff?.reason).toMatch(/evicts/);
    // Each node has its own port and replication source: shown, but as expected.
    expect(param(view, 'port').differs).toBe('expected');
    expect(param(view, 'replicaof').differs).toBe('expected');
    // The same values everywhere: no difference.
    expect(param(view, 'databases').differs).toBeUndefined();
    await replica.config('SET', 'maxmemory', '0');
  });

  it('groups every parameter, folds old names into new ones, and reads the config file and version', async () => {
    const view = await rpc.call('analyst', 'config.get', { profileId: 'rs' });
    const groupOf = (name: string) => param(view, name).group;
    expect(['save', 'appendonly', 'dir'].map(groupOf)).toEqual(['persistence', 'persistence', 'persistence']);
    expect(['replicaof', 'repl-backlog-size', 'masterauth'].map(groupOf)).toEqual(['replication', 'replication', 'replication']);
    expect(['requirepass', 'tls-port', 'aclfile'].map(groupOf)).toEqual(['security', 'security', 'security']);
    expect(['maxclients', 'timeout', 'client-output-buffer-limit'].map(groupOf)).toEqual(['clients', 'clients', 'clients']);
    expect(['cluster-enabled', 'cluster-announce-tls-port'].map(groupOf)).toEqual(['cluster', 'cluster']);
    expect(groupOf('hz')).toBe('others');
    // Sorted by section, then name.
    const order = view.params.map((p) => `${['memory', 'persistence', 'replication', 'security', 'clients', 'cluster', 'others'].indexOf(p.group)}:${p.name}`);
    expect(order).toEqual([...order].sort((a, b) => a.localeCompare(b, 'en')));
    // Redis 7.0 lists slave-priority beside replica-priority: one row.
    expect(view.params.some((p) => p.name === 'slave-priority')).toBe(false);
    expect(param(view, 'replica-priority').aliases).toContain('slave-priority');
    expect(view.nodes[0]).toMatchObject({ configFile: '', version: expect.stringMatching(/^\d+\.\d+/) as unknown });
  });

  it('masks secrets: whether they are set, never their values', async () => {
    const view = await rpc.call('analyst', 'config.get', { profileId: 'rs' });
    for (const name of ['requirepass', 'masterauth', 'masteruser', 'tls-key-file-pass', 'tls-client-key-file-pass']) {
      expect(param(view, name).secret, name).toBe(true);
      for (const c of param(view, name).cells) expect(c.value, name).toBeUndefined();
    }
    expect(param(view, 'requirepass').cells.map((c) => c.secretSet)).toEqual([true, true]);
    expect(param(view, 'tls-key-file-pass').cells.map((c) => c.secretSet)).toEqual([true, false]);
    // The master has no masterauth; its replica logs in with one: expected, and no value told.
    expect(cellOf(view, 'masterauth', at(set.replicas[0]!))?.diff?.kind).toBe('expected');
    // Named for auth but a choice: shown.
    expect(param(view, 'tls-auth-clients')).toMatchObject({ secret: false, cells: [{ value: expect.any(String) as unknown }, {}] });
  });
});

describe('config.set', () => {
  it('sets one node only, with the value before and after, and audits both', async () => {
    const r = at(set.replicas[0]!);
    const out = await rpc.call('ops', 'config.set', { profileId: 'rs', name: 'maxmemory-policy', value: 'allkeys-lru', target: { scope: 'node', address: r } });
    expect(out).toEqual({ name: 'maxmemory-policy', secret: false, results: [{ address: r, ok: true, before: 'noeviction', after: 'allkeys-lru' }] });
    expect(await replica.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'allkeys-lru']);
    expect(await master.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
    expect(rpc.audit().at(-1)).toMatchObject({
      user: 'ops-user',
      action: 'config.set',
      target: r,
      outcome: 'ok',
      detail: 'maxmemory-policy: "noeviction" → "allkeys-lru"',
    });
    const view = await rpc.call('ops', 'config.get', { profileId: 'rs' });
    expect(cellOf(view, 'maxmemory-policy', r)?.diff?.kind).toBe('matters');
    await replica.config('SET', 'maxmemory-policy', 'noeviction');
  });

  it('sets every node, and says what Redis kept', async () => {
    const out = await rpc.call('ops', 'config.set', { profileId: 'rs', name: 'maxmemory', value: '64mb', target: { scope: 'every' } });
    expect(out.results).toEqual([
      { address: at(set.master), ok: true, before: '0', after: '67108864' },
      { address: at(set.replicas[0]!), ok: true, before: '0', after: '67108864' },
    ]);
    expect(
      rpc
        .audit()
        .slice(-2)
        .map((e) => e.detail),
    ).toEqual(['maxmemory: "0" → "64mb" (reads back "67108864")', 'maxmemory: "0" → "64mb" (reads back "67108864")']);
    await Promise.all([master.config('SET', 'maxmemory', '0'), replica.config('SET', 'maxmemory', '0')]);
  });

  it("shows Redis's validation error for each node, and audits the attempt as failed", async () => {
    const out = await rpc.call('ops', 'config.set', { profileId: 'rs', name: 'maxmemory', value: 'lots', target: { scope: 'every' } });
    expect(out.results).toHaveLength(2);
    for (const r of out.results) {
      expect(r.ok).toBe(false);
      expect(r.error?.code).toBe('REDIS');
      expect(r.error?.message).toMatch(/argument must be a memory value/);
    }
    expect(rpc.audit().slice(-2)).toMatchObject([
      { action: 'config.set', outcome: 'failed', detail: expect.stringMatching(/^maxmemory: "0" → "lots" refused: .*memory value/) as unknown },
      { action: 'config.set', outcome: 'failed' },
    ]);
    expect(await master.config('GET', 'maxmemory')).toEqual(['maxmemory', '0']);
    const unknown = await rpc.call('ops', 'config.set', {
      profileId: 'rs',
      name: 'no-such-setting',
      value: '1',
      target: { scope: 'node', address: at(set.master) },
    });
    expect(unknown.results[0]?.error?.message).toMatch(/Unknown option/);
  });

  it('sets a secret without ever sending it back or writing it to the audit log', async () => {
    const out = await rpc.call('ops', 'config.set', { profileId: 'solo', name: 'requirepass', value: NEW_PASS, target: { scope: 'every' } });
    expect(out).toEqual({ name: 'requirepass', secret: true, results: [{ address: at(solo), ok: true }] });
    expect(rpc.audit().at(-1)).toMatchObject({ action: 'config.set', outcome: 'ok', detail: 'requirepass: (secret) → (secret)' });
    // The pool's connection logged in before: it still reads, and sees a password set.
    const view = await rpc.call('ops', 'config.get', { profileId: 'solo' });
    expect(param(view, 'requirepass').cells).toEqual([{ secretSet: true }]);
    const again = await rpc.call('ops', 'config.set', {
      profileId: 'rs',
      name: 'masterauth',
      value: PASS,
      target: { scope: 'node', address: at(set.replicas[0]!) },
    });
    expect(again.results).toEqual([{ address: at(set.replicas[0]!), ok: true }]);
    const admin = await adminClient(solo, { password: NEW_PASS });
    await admin.config('SET', 'requirepass', '');
  });

  it('refuses bad input naming the field', async () => {
    const base = { profileId: 'rs', value: '1', target: { scope: 'every' } };
    expect(await rpc.refused('ops', 'config.set', { ...base, name: 'max memory' })).toMatchObject({ code: 'VALIDATION', field: 'name' });
    expect(await rpc.refused('ops', 'config.set', { ...base, name: '*' })).toMatchObject({ code: 'VALIDATION', field: 'name' });
    expect(await rpc.refused('ops', 'config.set', { ...base, name: 'maxmemory', value: 'x'.repeat(5000) })).toMatchObject({
      code: 'VALIDATION',
      field: 'value',
      message: 'value must be at most 4096 characters',
    });
    const scope = await rpc.refused('ops', 'config.set', { ...base, name: 'maxmemory', target: { scope: 'all' } });
    expect(scope).toMatchObject({ code: 'VALIDATION', field: 'target.scope' });
    expect(scope.message).toMatch(/scope must be "node" \(with an address\) or "every"/);
    expect(await rpc.refused('ops', 'config.set', { ...base, name: 'maxmemory', target: { scope: 'node', address: '10.9.9.9:6379' } })).toMatchObject({
      code: 'NOT_FOUND',
      field: 'target.address',
    });
  });
});

describe('config.rewrite', () => {
  it('explains that a server started without a config file has nothing to rewrite', async () => {
    const out = await rpc.call('ops', 'config.rewrite', { profileId: 'solo', target: { scope: 'every' } });
    expect(out.results).toHaveLength(1);
    expect(out.results[0]).toMatchObject({ address: at(solo), ok: false, configFile: '' });
    expect(out.results[0]?.error?.message).toMatch(/started without a config file, so there is nothing to rewrite/);
    expect(rpc.audit().at(-1)).toMatchObject({ action: 'config.rewrite', outcome: 'failed', target: at(solo) });
  });

  it('rewrites the config file a server has, and explains a failure to write it', async () => {
    const file = join(fileDir, 'etc', 'redis.conf');
    const view = await rpc.call('ops', 'config.get', { profileId: 'file' });
    expect(view.nodes[0]?.configFile).toBe(file);
    await rpc.call('ops', 'config.set', { profileId: 'file', name: 'maxmemory', value: '32mb', target: { scope: 'every' } });
    const ok = await rpc.call('ops', 'config.rewrite', { profileId: 'file', target: { scope: 'node', address: at(withFile) } });
    expect(ok.results).toEqual([{ address: at(withFile), ok: true, configFile: file }]);
    expect(readFileSync(file, 'utf8')).toMatch(/^maxmemory 32mb$/m);
    expect(rpc.audit().at(-1)).toMatchObject({ action: 'config.rewrite', outcome: 'ok', detail: `rewrote ${file}` });

    // Redis writes a temporary file beside the config file: without its folder, the rewrite fails.
    rmSync(join(fileDir, 'etc'), { recursive: true });
    const failed = await rpc.call('ops', 'config.rewrite', { profileId: 'file', target: { scope: 'every' } });
    expect(failed.results[0]).toMatchObject({ ok: false, configFile: file });
    expect(failed.results[0]?.error?.message).toMatch(
      new RegExp(`could not rewrite its config file ${file}: No such file or directory\\. The settings in effect are unchanged`),
    );
    expect(existsSync(file)).toBe(false);
  });
});

describe('roles and read-only profiles', () => {
  it('refuses an analyst every write, by role, before Redis is asked, and audits the attempt', async () => {
    const before = await master.config('GET', 'maxmemory');
    for (const [name, input] of [
      ['config.set', { profileId: 'rs', name: 'maxmemory', value: '1mb', target: { scope: 'every' } }],
      ['config.set', { profileId: 'rs', name: 'requirepass', value: 'x', target: { scope: 'node', address: at(set.master) } }],
      ['config.rewrite', { profileId: 'rs', target: { scope: 'every' } }],
    ] as const) {
      const e = await rpc.refused('analyst', name, input);
      expect(e.code, name).toBe('FORBIDDEN');
      expect(rpc.audit().at(-1)).toMatchObject({ user: 'analyst-user', action: name, outcome: 'refused' });
    }
    expect(await master.config('GET', 'maxmemory')).toEqual(before);
  });

  it('refuses writes on the read-only embedded profile, and still reads it', async () => {
    const every = { scope: 'every' } as const;
    const setting = await rpc.refused('ops', 'config.set', { profileId: 'embedded', name: 'maxmemory', value: '1mb', target: every });
    expect(setting).toMatchObject({ code: 'READ_ONLY', field: 'profileId' });
    expect(setting.message).toMatch(/read-only embedded server: its configuration cannot be changed here/);
    expect(await rpc.refused('ops', 'config.rewrite', { profileId: 'embedded', target: every })).toMatchObject({ code: 'READ_ONLY' });
    expect((await rpc.call('ops', 'config.get', { profileId: 'embedded' })).nodes[0]?.state).toBe('ok');
  });
});

describe('secrets', () => {
  it('no reply, error or audit entry of this file ever held a secret value', () => {
    const frames = rpc.frames();
    expect(frames.length).toBeGreaterThan(20);
    for (const secret of [PASS, TLS_PASS, NEW_PASS]) {
      expect(frames.filter((f) => f.includes(secret))).toEqual([]);
      expect(rpc.auditText().includes(secret), secret).toBe(false);
    }
  });
});
