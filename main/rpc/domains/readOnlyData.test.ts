import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import { adminClient, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { createRuntime, type Runtime } from '../../runtime';
import { createMemoryWirePair } from '../wireTestKit';

/*
 * Two profiles from the server's config file on one server: "open" as a hosted build defines
 * its profiles, "locked" marked `"readOnly": true`. Ops write through the first on every write
 * path and are refused on every one through the second, with the same READ_ONLY and no change.
 */

const redis = useRedis();
const root = mkdtempSync(join(tmpdir(), 'cb-readonly-data-'));
const importDir = join(root, 'import');
let runtime: Runtime;
let admin: Redis;
let ops: RpcClient;

beforeAll(async () => {
  mkdirSync(importDir);
  writeFileSync(join(importDir, 'load.csv'), 'id,v\n1,loaded\n');
  const configFile = join(root, 'cacheboard.json');
  const server = { host: redis().host, port: redis().port };
  writeFileSync(
    configFile,
    JSON.stringify({
      profiles: [
        { id: 'open', name: 'open', ...server },
        { id: 'locked', name: 'locked', ...server, readOnly: true },
      ],
    }),
  );
  runtime = await createRuntime({ dataDir: join(root, 'data'), secretBox: noSecretBox('tests'), configFile, importDir });
  admin = await adminClient(redis());
  const { server: end0, client: end } = createMemoryWirePair();
  runtime.attach(end0, { role: 'ops', user: 'ops' });
  ops = new RpcClient((m) => end.send(m));
  end.onMessage((m) => ops.receive(m));
});
afterAll(async () => {
  await runtime.close();
  await closeAdmins();
  rmSync(root, { recursive: true, force: true });
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
const refusal = (p: Promise<unknown>): Promise<AppError> =>
  p.then(
    (r) => {
      throw new Error(`not refused: ${JSON.stringify(r).slice(0, 200)}`);
    },
    (e: AppError) => e,
  );
let runs = 0;
const consoleRun = (profileId: string, line: string) => ops.invoke('console.run', { profileId, consoleId: 'console-1', runId: `run-${++runs}`, line });
const mapping = { key: 'load:{id}', type: 'string' as const, value: 'v' };
async function fileId(): Promise<string> {
  const { files } = await ops.invoke('bulk.files', {});
  const id = files.find((f) => f.name === 'load.csv')?.fileId;
  if (id === undefined) throw new Error('load.csv was not listed');
  return id;
}
/** A side connection's CLIENT ID, for a kill that must (or must not) land. */
async function victim(): Promise<{ client: Redis; id: string }> {
  const client = await adminClient(redis());
  return { client, id: String(await client.client('ID')) };
}
const address = () => `${redis().host}:${redis().port}`;

describe('a profile from the config file', () => {
  it('is listed as a locked definition, its data writable unless the file marks it readOnly', async () => {
    const { profiles } = await ops.invoke('connections.list', {});
    expect(profiles.find((p) => p.id === 'open')).toMatchObject({ source: 'config', definitionLocked: true, readOnlyData: false });
    expect(profiles.find((p) => p.id === 'locked')).toMatchObject({ source: 'config', definitionLocked: true, readOnlyData: true });
  });

  it('without the mark: ops edit keys, run key actions, load, write in the console, set config and kill a client', async () => {
    await ops.invoke('keys.edit', { profileId: 'open', key: b64('made'), edit: { op: 'create', type: 'string', value: b64('v') } });
    expect(await admin.get('made')).toBe('v');

    await admin.set('gone:1', 'x');
    await ops.invoke('keys.actions.start', { profileId: 'open', db: 0, selection: { match: b64('gone:*') }, action: { op: 'delete' }, dryRun: false });
    expect(await eventually(async () => (await admin.exists('gone:1')) === 0)).toBe(true);

    await ops.invoke('bulk.start', { profileId: 'open', fileId: await fileId(), mapping, mode: 'merge' });
    expect(await eventually(async () => (await admin.get('load:1')) === 'loaded', 10_000)).toBe(true);

    await expect(consoleRun('open', 'SET typed yes')).resolves.toMatchObject({ status: 'done' });
    expect(await admin.get('typed')).toBe('yes');

    await ops.invoke('config.set', { profileId: 'open', name: 'slowlog-max-len', value: '321', target: { scope: 'every' } });
    expect(await admin.config('GET', 'slowlog-max-len')).toEqual(['slowlog-max-len', '321']);

    const v = await victim();
    await expect(ops.invoke('clients.kill', { profileId: 'open', address: address(), id: v.id, confirm: v.id })).resolves.toMatchObject({ killed: true });
  });

  it('marked readOnly: every write path is refused with the same READ_ONLY, and nothing changes', async () => {
    await admin.set('kept:1', 'x');
    await admin.config('SET', 'slowlog-max-len', '128');
    const v = await victim();
    const refusals = [
      await refusal(ops.invoke('keys.edit', { profileId: 'locked', key: b64('never'), edit: { op: 'create', type: 'string', value: b64('v') } })),
      await refusal(
        ops.invoke('keys.actions.start', { profileId: 'locked', db: 0, selection: { match: b64('kept:*') }, action: { op: 'delete' }, dryRun: false }),
      ),
      await refusal(ops.invoke('bulk.start', { profileId: 'locked', fileId: await fileId(), mapping: { ...mapping, key: 'never:{id}' }, mode: 'merge' })),
      await refusal(consoleRun('locked', 'SET never yes')),
      await refusal(ops.invoke('config.set', { profileId: 'locked', name: 'slowlog-max-len', value: '999', target: { scope: 'every' } })),
      await refusal(ops.invoke('config.rewrite', { profileId: 'locked', target: { scope: 'every' } })),
      await refusal(ops.invoke('clients.kill', { profileId: 'locked', address: address(), id: v.id, confirm: v.id })),
      await refusal(ops.invoke('clients.pause', { profileId: 'locked', address: address(), mode: 'WRITE', ms: 10, confirm: 'PAUSE' })),
    ];
    for (const e of refusals) {
      expect(e).toMatchObject({
        code: 'READ_ONLY',
        field: 'profileId',
        message: expect.stringContaining('"locked" is marked "readOnly" in the server\'s config file'),
      });
    }
    // Reads still run there.
    await expect(consoleRun('locked', 'GET kept:1')).resolves.toMatchObject({ status: 'done' });
    expect(await admin.exists('never', 'never:1')).toBe(0);
    expect(await admin.get('kept:1')).toBe('x');
    expect(await admin.config('GET', 'slowlog-max-len')).toEqual(['slowlog-max-len', '128']);
    expect(await v.client.ping()).toBe('PONG');
  });
});
