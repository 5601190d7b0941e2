import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import type { LoadEvent } from '../../../app/schemas/bulk';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { createRuntime, type Runtime } from '../../runtime';
import { createMemoryWirePair } from '../wireTestKit';

const redis = useRedis();
const root = mkdtempSync(join(tmpdir(), 'cb-import-rpc-'));
const importDir = join(root, 'import');
const outside = join(root, 'outside.csv');
const SECRET = 'TOP-SECRET-4471';
const mapping = { key: 'k:{id}', type: 'string' as const, value: 'v' };
let runtime: Runtime;
let admin: Redis;
let ops: RpcClient;

beforeAll(async () => {
  mkdirSync(importDir);
  writeFileSync(outside, `id,v\n1,${SECRET}\n`);
  runtime = await createRuntime({ dataDir: join(root, 'data'), secretBox: noSecretBox('tests'), redisUrl: redis().url, importDir });
  admin = await adminClient(redis());
  const { server, client: end } = createMemoryWirePair();
  runtime.attach(server, { role: 'ops', user: 'ops' });
  ops = new RpcClient((m) => end.send(m));
  end.onMessage((m) => ops.receive(m));
});
afterAll(async () => {
  await runtime.close();
  await closeAdmins();
  rmSync(root, { recursive: true, force: true });
});

/** Lists the folder with one plain file `name`, then replaces that name with `make`'s link. */
async function listedThenSwapped(name: string, make: (path: string) => void): Promise<string> {
  const path = join(importDir, name);
  writeFileSync(path, 'id,v\n1,fine\n');
  const { files } = await ops.invoke('bulk.files', {});
  const fileId = files.find((f) => f.name === name)?.fileId;
  if (fileId === undefined) throw new Error(`${name} was not listed`);
  rmSync(path);
  make(path);
  return fileId;
}

function report(jobId: string): Promise<{ events: LoadEvent[]; error: AppError | undefined }> {
  return new Promise((resolve) => {
    const events: LoadEvent[] = [];
    ops.subscribe('bulk.progress', { jobId }, { onEvents: (b) => events.push(...b), onEnd: (error) => resolve({ events, error }) });
  });
}

describe('the import folder over the rpc layer', () => {
  it('does not list a symlink or a hard link to a file outside the folder', async () => {
    symlinkSync(outside, join(importDir, 'soft.csv'));
    linkSync(outside, join(importDir, 'hard.csv'));
    const { files } = await ops.invoke('bulk.files', {});
    expect(files.map((f) => f.name)).not.toContain('soft.csv');
    expect(files.map((f) => f.name)).not.toContain('hard.csv');
  });

  it('bulk.preview refuses a listed file swapped for a symlink, and nothing of the target is sent', async () => {
    const fileId = await listedThenSwapped('swapped.csv', (p) => symlinkSync(outside, p));
    const err = await ops.invoke('bulk.preview', { fileId, mapping, rows: 5 }).then(
      (out) => JSON.stringify(out),
      (e: AppError) => e,
    );
    expect(err).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('is a symbolic link') });
    expect(JSON.stringify(err)).not.toContain(SECRET);
  });

  it('bulk.preview refuses a listed file swapped for a hard link to a file outside', async () => {
    const fileId = await listedThenSwapped('hardswap.csv', (p) => linkSync(outside, p));
    await expect(ops.invoke('bulk.preview', { fileId, mapping, rows: 5 })).rejects.toMatchObject({ message: expect.stringContaining('hard links') });
  });

  it("bulk.start's load refuses a listed file swapped for a symlink, and loads nothing", async () => {
    const fileId = await listedThenSwapped('load.csv', (p) => symlinkSync(outside, p));
    const { jobId } = await ops.invoke('bulk.start', { profileId: 'env', fileId, mapping, mode: 'merge' });
    const { events } = await report(jobId);
    const last = events.at(-1);
    expect(last).toMatchObject({ kind: 'report', report: { outcome: 'failed', error: { message: expect.stringContaining('is a symbolic link') } } });
    expect(await admin.get('k:1')).toBeNull();
  });
});
