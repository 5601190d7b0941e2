import { linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../app/errors';
import { ProfileView } from '../../../app/schemas/connections';
import { specFor } from '../../../testing/profiles';
import { aesSecretBox } from './aesSecretBox';
import { noSecretBox } from './noSecretBox';
import { ProfileStore } from './profileStore';
import type { StoredProfile } from './types';

const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cacheboard-store-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const box = aesSecretBox('test-key-0123456789abcdef');
const configProfile: StoredProfile = { id: 'prod', source: 'config', spec: specFor({ host: 'prod.internal', port: 6379 }) };
const embedded: StoredProfile = { id: 'embedded', source: 'embedded', spec: specFor({ port: 40000 }) };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : `not an AppError: ${String(e)}`;
  }
  return undefined;
}

describe('ProfileStore', () => {
  it('never writes a password in plain text, yet gives it back to the Node side', () => {
    const dir = dataDir();
    const store = new ProfileStore({ dataDir: dir, secretBox: box });
    const p = store.add(specFor({ port: 7000 }, { name: 'Cache A', password: 'plain-text-password-42', username: 'app' }));
    const text = readFileSync(store.file, 'utf8');
    expect(text).not.toContain('plain-text-password-42');
    expect(JSON.parse(text).profiles[0].passwordSealed).toMatch(/^v1:/);
    expect(store.get(p.id)?.spec.password).toBe('plain-text-password-42');
    // A new store over the same file (next app start) opens it with the same key.
    const reopened = new ProfileStore({ dataDir: dir, secretBox: box });
    expect(reopened.get(p.id)?.spec).toEqual(p.spec);
  });

  it('writes profiles.json readable by the owner only, replacing it whole on every change', () => {
    const store = new ProfileStore({ dataDir: dataDir(), secretBox: box });
    const a = store.add(specFor({ port: 7000 }, { name: 'A' }));
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    // A second name for the current file: an in-place rewrite would change what it shows,
    // a rename-over leaves it holding the complete old version.
    const before = readFileSync(store.file, 'utf8');
    const oldVersion = join(dataDir(), 'old-version');
    linkSync(store.file, oldVersion);
    store.add(specFor({ port: 7001 }, { name: 'B' }));
    store.update(a.id, specFor({ port: 7002 }, { name: 'A2' }));
    expect(readFileSync(oldVersion, 'utf8')).toBe(before);
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    const json = JSON.parse(readFileSync(store.file, 'utf8'));
    expect(json.profiles.map((p: { name: string }) => p.name)).toEqual(['A2', 'B']);
    // No temp files left behind.
    expect(readdirSync(join(store.file, '..'))).toEqual(['profiles.json']);
  });

  it('generates readable, valid ids from the name', () => {
    const store = new ProfileStore({ dataDir: dataDir(), secretBox: box });
    const a = store.add(specFor({ port: 1 }, { name: 'Prod Cache (EU) ✓' }));
    const b = store.add(specFor({ port: 1 }, { name: 'Prod Cache (EU) ✓' }));
    expect(a.id).toMatch(/^prod-cache-eu-[0-9a-f]{6}$/);
    expect(b.id).not.toBe(a.id);
    expect(store.add(specFor({ port: 1 }, { name: '✓✓' })).id).toMatch(/^profile-[0-9a-f]{6}$/);
  });

  it('keeps the stored password on update unless a new one is given, clearPassword is set, or the profile moved', () => {
    const store = new ProfileStore({ dataDir: dataDir(), secretBox: box });
    const p = store.add(specFor({ port: 2 }, { password: 'first' }));
    store.update(p.id, specFor({ port: 2 }, { name: 'renamed' }));
    expect(store.get(p.id)?.spec).toMatchObject({ port: 2, password: 'first' });
    store.update(p.id, specFor({ port: 3 }));
    expect(store.get(p.id)?.spec.password).toBeUndefined();
    store.update(p.id, specFor({ port: 2 }, { password: 'second' }));
    expect(store.get(p.id)?.spec.password).toBe('second');
    store.update(p.id, specFor({ port: 2 }), { clearPassword: true });
    expect(store.get(p.id)?.spec.password).toBeUndefined();
    expect(store.view(store.get(p.id) as StoredProfile).hasPassword).toBe(false);
  });

  it('views carry hasPassword but never the password, and validate against the contract', () => {
    const store = new ProfileStore({ dataDir: dataDir(), secretBox: box, definitionLocked: [configProfile] });
    const p = store.add(specFor({ port: 1 }, { password: 'pw' }));
    const v = store.view(p);
    expect(ProfileView.parse(v)).toEqual(v);
    expect(v).toMatchObject({ id: p.id, hasPassword: true, source: 'user', definitionLocked: false, readOnlyData: false });
    expect(JSON.stringify(v)).not.toContain('"pw"');
    expect(store.view(configProfile)).toMatchObject({ source: 'config', definitionLocked: true, readOnlyData: false, hasPassword: false });
  });

  it('lists read-only profiles first and refuses to change or remove them with READ_ONLY', () => {
    const store = new ProfileStore({ dataDir: dataDir(), secretBox: box, definitionLocked: [embedded, configProfile] });
    const user = store.add(specFor({ port: 1 }));
    expect(store.list().map((p) => p.id)).toEqual(['embedded', 'prod', user.id]);
    expect(codeOf(() => store.update('prod', specFor({ port: 2 })))).toBe('READ_ONLY');
    expect(codeOf(() => store.remove('prod'))).toBe('READ_ONLY');
    expect(codeOf(() => store.remove('embedded'))).toBe('READ_ONLY');
    expect(codeOf(() => store.remove('missing'))).toBe('NOT_FOUND');
    store.remove(user.id);
    expect(store.get(user.id)).toBeUndefined();
    expect(store.list().map((p) => p.id)).toEqual(['embedded', 'prod']);
  });

  it('refuses a password with SECRETS_UNAVAILABLE when the box cannot keep it, and writes nothing', () => {
    const store = new ProfileStore({ dataDir: dataDir(), secretBox: noSecretBox('No OS keyring is available.') });
    let err: unknown;
    try {
      store.add(specFor({ port: 1 }, { password: 'pw' }));
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'SECRETS_UNAVAILABLE', field: 'password' });
    expect((err as AppError).message).toContain('No OS keyring is available.');
    expect((err as AppError).message).toMatch(/without a password/);
    expect(store.list()).toEqual([]);
    // Without a password the same profile is fine.
    expect(store.add(specFor({ port: 1 })).id).toBeTruthy();
    expect(store.passwordStorage()).toEqual({ available: false, reason: 'No OS keyring is available.' });
  });

  it('refuses a TLS CA file that does not exist with VALIDATION on tls.caFile', () => {
    const store = new ProfileStore({ dataDir: dataDir(), secretBox: box });
    const spec = specFor({ port: 1 }, { tls: { enabled: true, caFile: '/no/such/ca.pem', rejectUnauthorized: true } });
    let err: unknown;
    try {
      store.add(spec);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'VALIDATION', field: 'tls.caFile', message: 'tls.caFile: file not found: /no/such/ca.pem' });
  });

  it('stops with an error naming a corrupt profiles.json and leaves it untouched', () => {
    const dir = dataDir();
    const file = join(dir, 'profiles.json');
    writeFileSync(file, '{"version":1,"profiles":[{"id":');
    expect(() => new ProfileStore({ dataDir: dir, secretBox: box })).toThrow(file);
    writeFileSync(file, JSON.stringify({ version: 1, profiles: [{ id: 'x', name: 'X' }] }));
    expect(() => new ProfileStore({ dataDir: dir, secretBox: box })).toThrow(/profiles\[0\]\.host/);
    expect(readFileSync(file, 'utf8')).toContain('"X"');
  });

  it('reports a password sealed with another key as SECRETS_UNAVAILABLE on get, yet still lists the profile', () => {
    const dir = dataDir();
    const p = new ProfileStore({ dataDir: dir, secretBox: box }).add(specFor({ port: 1 }, { password: 'pw' }));
    const other = new ProfileStore({ dataDir: dir, secretBox: aesSecretBox('another-key-0123456789') });
    expect(codeOf(() => other.get(p.id))).toBe('SECRETS_UNAVAILABLE');
    const listed = other.list();
    expect(listed.map((x) => x.id)).toEqual([p.id]);
    expect(other.view(listed[0] as StoredProfile).hasPassword).toBe(true);
  });

  it("keeps a sentinel profile's topology, seals its sentinel password, and shows only that one is set", () => {
    const dir = dataDir();
    const store = new ProfileStore({ dataDir: dir, secretBox: box });
    const sentinels = [
      { host: 's1', port: 26379 },
      { host: 's2', port: 26380 },
    ];
    const spec = specFor(
      { host: 's1', port: 26379 },
      {
        name: 'HA',
        topology: { kind: 'sentinel', sentinels, masterName: 'mymaster', sentinelUsername: 'watcher', sentinelPassword: 'sentinel-secret-77' },
      },
    );
    const p = store.add(spec);
    expect(readFileSync(store.file, 'utf8')).not.toContain('sentinel-secret-77');
    const reread = new ProfileStore({ dataDir: dir, secretBox: box });
    expect(reread.get(p.id)?.spec.topology).toEqual(spec.topology);
    const view = ProfileView.parse(reread.view(reread.get(p.id) as StoredProfile));
    expect(view.topology).toEqual({
      kind: 'sentinel',
      sentinels: ['s1:26379', 's2:26380'],
      masterName: 'mymaster',
      sentinelUsername: 'watcher',
      hasSentinelPassword: true,
    });
    // An edit without the sentinel password keeps the stored one; clearPassword drops it.
    const { sentinelPassword: _kept, ...withoutPassword } = spec.topology as { sentinelPassword?: string };
    const edited = { ...spec, topology: withoutPassword as typeof spec.topology };
    expect(reread.update(p.id, edited).spec.topology).toMatchObject({ sentinelPassword: 'sentinel-secret-77' });
    expect(reread.update(p.id, edited, { clearPassword: true }).spec.topology).not.toHaveProperty('sentinelPassword');
  });

  it("keeps a cluster profile's seeds, and an older file without topologies reads as standalone", () => {
    const dir = dataDir();
    const store = new ProfileStore({ dataDir: dir, secretBox: box });
    const seeds = [
      { host: 'c1', port: 7000 },
      { host: 'c2', port: 7001 },
    ];
    const p = store.add(specFor({ host: 'c1', port: 7000 }, { name: 'Cluster', topology: { kind: 'cluster', seeds } }));
    const reread = new ProfileStore({ dataDir: dir, secretBox: box });
    expect(reread.view(reread.get(p.id) as StoredProfile).topology).toEqual({ kind: 'cluster', seeds: ['c1:7000', 'c2:7001'] });
    const plain = store.add(specFor({ port: 7002 }, { name: 'Plain' }));
    expect(store.view(store.get(plain.id) as StoredProfile)).not.toHaveProperty('topology');
  });
});
