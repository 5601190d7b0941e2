import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProfileId } from '../../../app/schemas/common';
import { specFor } from '../../../testing/profiles';
import { aesSecretBox } from '../pool/aesSecretBox';
import { noSecretBox } from '../pool/noSecretBox';
import { ProfileStore } from '../pool/profileStore';
import type { ProfileSpec } from '../pool/types';
import { redisInsightExport } from './importTestKit';
import { commitImport, exportProfiles, previewImport } from './profileTransfer';
import { appErrorOf } from '../../../testing/appErrorOf';

const dirs: string[] = [];
function freshStore(box = aesSecretBox('transfer-test-key-0123456789')): ProfileStore {
  const d = mkdtempSync(join(tmpdir(), 'cacheboard-transfer-'));
  dirs.push(d);
  return new ProfileStore({ dataDir: d, secretBox: box });
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** One profile of every shape, each with every secret it can hold. */
function everyShape(caFile: string): ProfileSpec[] {
  return [
    specFor({ host: 'cache.internal', port: 6380 }, { name: 'Plain', db: 3, username: 'app', password: 'plain-secret', tags: ['prod', 'team/eu'] }),
    specFor(
      { host: '10.0.0.1', port: 7000 },
      {
        name: 'Shards',
        password: 'cluster-secret',
        tls: { enabled: true, caFile, servername: 'shards.internal', rejectUnauthorized: true },
        topology: {
          kind: 'cluster',
          seeds: [
            { host: '10.0.0.1', port: 7000 },
            { host: '10.0.0.2', port: 7000 },
          ],
        },
      },
    ),
    specFor(
      { host: 's1.internal', port: 26379 },
      {
        name: 'HA',
        password: 'data-secret',
        topology: {
          kind: 'sentinel',
          sentinels: [
            { host: 's1.internal', port: 26379 },
            { host: 's2.internal', port: 26380 },
          ],
          masterName: 'mymaster',
          sentinelUsername: 'sen',
          sentinelPassword: 'sentinel-secret',
        },
        analyst: { access: 'user', username: 'analyst', password: 'analyst-secret' },
      },
    ),
    specFor(
      { host: '127.0.0.1', port: 6379 },
      {
        name: 'Tunnel',
        analyst: { access: 'none' },
        ssh: {
          host: 'bastion.internal',
          port: 2222,
          user: 'deploy',
          auth: { kind: 'key', keyFile: '/keys/id_ed25519', passphrase: 'key-secret' },
          jumps: [{ host: 'edge.internal', user: 'jump', auth: { kind: 'password', password: 'jump-secret' } }],
          knownHostsFile: '/keys/known_hosts',
        },
      },
    ),
  ];
}

const SECRETS = ['plain-secret', 'cluster-secret', 'data-secret', 'sentinel-secret', 'analyst-secret', 'key-secret', 'jump-secret'];

function seeded(): { store: ProfileStore; specs: ProfileSpec[] } {
  const store = freshStore();
  const caFile = join(store.file, '..', 'ca.pem');
  writeFileSync(caFile, 'pem');
  const specs = everyShape(caFile);
  for (const s of specs) store.add(s);
  return { store, specs };
}

/** A store's profiles as the Node side holds them, with their secrets, ids aside. */
function specsOf(store: ProfileStore) {
  return store.list().map((p) => {
    const full = store.get(p.id);
    return { spec: full?.spec, analyst: full?.analyst, analystsRefused: full?.analystsRefused };
  });
}

describe('export then import', () => {
  it('gives back every profile equal, secrets included, when exported with a passphrase', () => {
    const { store } = seeded();
    const file = exportProfiles(store, { includeSecrets: true, passphrase: 'round trip passphrase' });
    expect(file.count).toBe(4);
    expect(file.withSecrets).toBe(4);
    for (const s of SECRETS) expect(file.content).not.toContain(s);
    const target = freshStore(aesSecretBox('another-deployment-key-0123'));
    const { imported } = commitImport(target, file.content, 'round trip passphrase', { onCollision: 'rename' });
    expect(imported).toHaveLength(4);
    expect(specsOf(target)).toEqual(specsOf(store));
  });

  it('leaves every secret out by default, and the rest equal', () => {
    const { store } = seeded();
    const file = exportProfiles(store, { includeSecrets: false });
    expect(JSON.parse(file.content)).not.toHaveProperty('secrets');
    for (const s of SECRETS) expect(file.content).not.toContain(s);
    const target = freshStore();
    commitImport(target, file.content, undefined, { onCollision: 'rename' });
    const got = specsOf(target);
    expect(got.map((p) => p.spec?.password)).toEqual([undefined, undefined, undefined, undefined]);
    expect(got[2]?.spec?.topology).toEqual({ kind: 'sentinel', sentinels: expect.any(Array), masterName: 'mymaster', sentinelUsername: 'sen' });
    expect(got[2]?.analyst).toEqual({ username: 'analyst' });
    expect(got[3]?.spec?.ssh?.auth).toEqual({ kind: 'key', keyFile: '/keys/id_ed25519' });
    expect(got[3]?.spec?.ssh?.jumps?.[0]?.auth).toEqual({ kind: 'password' });
    expect(got[3]?.analystsRefused).toBe(true);
    expect(got[0]?.spec?.tags).toEqual(['prod', 'team/eu']);
  });

  it('exports only the chosen profiles, and refuses one from the server configuration', () => {
    const { store } = seeded();
    const [first] = store.list();
    const one = exportProfiles(store, { ids: [first?.id as ProfileId], includeSecrets: false });
    expect(one.count).toBe(1);
    expect(appErrorOf(() => exportProfiles(store, { ids: ['embedded' as ProfileId], includeSecrets: false })).code).toBe('NOT_FOUND');
  });
});

describe('import preview and commit', () => {
  it('previews without writing: mapped fields, names of secrets, collisions', () => {
    const store = freshStore();
    store.add(specFor({ port: 6379 }, { name: 'Orders-Cache' }));
    const before = readFileSync(store.file, 'utf8');
    const preview = previewImport(store, JSON.stringify(redisInsightExport()));
    expect(readFileSync(store.file, 'utf8')).toBe(before);
    expect(preview.format).toBe('redisinsight');
    expect(preview.entries.map((e) => [e.name, e.kind, e.address, e.collision, e.renamedTo])).toEqual([
      ['orders-cache', 'standalone', 'orders.redis.internal:12000/2', true, 'orders-cache (imported)'],
      ['sessions cluster', 'cluster', '10.0.0.11:7000', false, undefined],
      ['queue (mymaster)', 'sentinel', 'sentinel-1.internal:26379', false, undefined],
      ['behind bastion', 'standalone', '127.0.0.1:6379', false, undefined],
    ]);
    expect(preview.entries[2]?.secrets).toEqual(['password', 'sentinel password']);
    for (const s of ['orders-secret', 'cluster-secret', 'sentinel-secret', 'master-secret', 'ssh-secret']) expect(JSON.stringify(preview)).not.toContain(s);
  });

  it('renames or skips a profile whose name is taken', () => {
    const store = freshStore();
    store.add(specFor({ port: 6379 }, { name: 'orders-cache' }));
    const renamed = commitImport(store, JSON.stringify(redisInsightExport()), undefined, { onCollision: 'rename' });
    expect(renamed.imported.map((p) => p.spec.name)).toContain('orders-cache (imported)');
    const again = commitImport(store, JSON.stringify(redisInsightExport()), undefined, { onCollision: 'skip' });
    expect(again.skipped).toEqual(['orders-cache', 'sessions cluster', 'queue (mymaster)', 'behind bastion']);
    expect(again.imported).toEqual([]);
  });

  it('writes nothing when one entry is bad', () => {
    const store = freshStore();
    store.add(specFor({ port: 6379 }, { name: 'kept' }));
    const before = readFileSync(store.file, 'utf8');
    const entries = redisInsightExport();
    entries[3] = { ...(entries[3] as object), host: 'bad host!' };
    const e = appErrorOf(() => commitImport(store, JSON.stringify(entries), undefined, { onCollision: 'rename' }));
    expect(e.field).toBe('entries[3].host');
    expect(readFileSync(store.file, 'utf8')).toBe(before);
    expect(store.list().map((p) => p.spec.name)).toEqual(['kept']);
  });

  it('writes nothing on a wrong passphrase', () => {
    const { store } = seeded();
    const file = exportProfiles(store, { includeSecrets: true, passphrase: 'the right one' });
    const target = freshStore();
    target.add(specFor({ port: 6379 }, { name: 'kept' }));
    const before = readFileSync(target.file, 'utf8');
    expect(appErrorOf(() => commitImport(target, file.content, 'the wrong one', { onCollision: 'rename' })).field).toBe('passphrase');
    expect(readFileSync(target.file, 'utf8')).toBe(before);
  });

  it('writes nothing when a password has no safe place to go', () => {
    const store = freshStore(noSecretBox('no keyring here'));
    store.add(specFor({ port: 6379 }, { name: 'kept' }));
    const before = readFileSync(store.file, 'utf8');
    expect(appErrorOf(() => commitImport(store, JSON.stringify(redisInsightExport()), undefined, { onCollision: 'rename' })).code).toBe('SECRETS_UNAVAILABLE');
    expect(readFileSync(store.file, 'utf8')).toBe(before);
    expect(previewImport(store, JSON.stringify(redisInsightExport())).passwordStorage.available).toBe(false);
  });

  it('imports without any secret when asked, so a store with nowhere safe for them still takes the profiles', () => {
    const store = freshStore(noSecretBox('no keyring here'));
    const { imported } = commitImport(store, JSON.stringify(redisInsightExport()), undefined, { onCollision: 'rename', dropSecrets: true });
    expect(imported).toHaveLength(4);
    const text = readFileSync(store.file, 'utf8');
    for (const s of ['orders-secret', 'cluster-secret', 'sentinel-secret', 'master-secret', 'ssh-secret']) expect(text).not.toContain(s);
    expect(imported[3]?.spec.ssh?.auth).toEqual({ kind: 'password' });
    expect(imported[2]?.spec.topology).not.toHaveProperty('sentinelPassword');
  });
});

describe('tags', () => {
  it('are kept by an update that does not name them, and replaced by one that does', () => {
    const store = freshStore();
    const p = store.add(specFor({ port: 6379 }, { name: 'A', tags: ['prod'] }));
    store.update(p.id, specFor({ port: 6379 }, { name: 'A2' }));
    expect(store.view(store.get(p.id)!).tags).toEqual(['prod']);
    store.update(p.id, specFor({ port: 6379 }, { name: 'A2', tags: [] }));
    expect(store.view(store.get(p.id)!).tags).toBeUndefined();
  });
});
