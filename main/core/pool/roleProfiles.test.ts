import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProfileId } from '../../../app/schemas/common';
import { ProfileView } from '../../../app/schemas/connections';
import { specFor } from '../../../testing/profiles';
import { noSecretBox } from './noSecretBox';
import { ProfileStore } from './profileStore';
import type { StoredProfile } from './types';

const dir = mkdtempSync(join(tmpdir(), 'cacheboard-roles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPS_PW = 'ops-Secret-1';
const ANALYST_PW = 'analyst-Secret-2';
const prod: StoredProfile = {
  id: 'prod',
  source: 'config',
  spec: specFor({ host: 'prod.internal', port: 6380 }, { db: 2, username: 'ops', password: OPS_PW }),
  analyst: { username: 'cb-analyst', password: ANALYST_PW },
};
/** An analyst user without a password (`nopass`): the ops password must not come along. */
const open: StoredProfile = { id: 'open', source: 'config', spec: specFor({ port: 6381 }, { password: OPS_PW }), analyst: { username: 'reader' } };
const plain: StoredProfile = { id: 'plain', source: 'config', spec: specFor({ port: 6382 }, { password: OPS_PW }) };
const store = new ProfileStore({ dataDir: dir, secretBox: noSecretBox('tests'), definitionLocked: [prod, open, plain] });

describe('per-role credentials on a profile', () => {
  it("gives analysts the profile's analyst connection id, and ops (or a profile without analyst credentials) its own", () => {
    expect(store.forRole(ProfileId.parse('prod'), 'analyst')).toBe('prod@analyst');
    expect(store.forRole(ProfileId.parse('prod'), 'ops')).toBe('prod');
    expect(store.forRole(ProfileId.parse('plain'), 'analyst')).toBe('plain');
    expect(store.forRole(ProfileId.parse('ghost'), 'analyst')).toBe('ghost');
  });

  it('resolves the analyst id to the same server as the analyst Redis user, never lending the ops password', () => {
    expect(store.get('prod@analyst')).toEqual({
      id: 'prod@analyst',
      source: 'config',
      spec: { ...prod.spec, username: 'cb-analyst', password: ANALYST_PW },
    });
    const reader = store.get(store.forRole(ProfileId.parse('open'), 'analyst'));
    expect(reader?.spec).toMatchObject({ port: 6381, username: 'reader' });
    expect(reader?.spec.password).toBeUndefined();
    expect(store.get('prod')?.spec).toMatchObject({ username: 'ops', password: OPS_PW });
    // No analyst credentials, no analyst id: nothing to resolve.
    expect(store.get('plain@analyst')).toBeUndefined();
    expect(store.get('ghost@analyst')).toBeUndefined();
  });

  it('lists each profile once, and the pool every connection id', () => {
    expect(store.list().map((p) => p.id)).toEqual(['prod', 'open', 'plain']);
    expect(store.connectable().map((p) => p.id)).toEqual(['prod', 'open', 'plain', 'prod@analyst', 'open@analyst']);
  });

  it("shows each role the state of its own connections, under the profile's id", () => {
    expect(store.shownAs('prod@analyst', 'analyst')).toBe('prod');
    expect(store.shownAs('prod', 'analyst')).toBeUndefined();
    expect(store.shownAs('prod', 'ops')).toBe('prod');
    expect(store.shownAs('prod@analyst', 'ops')).toBeUndefined();
    expect(store.shownAs('plain', 'analyst')).toBe('plain');
  });

  it('views show an analyst the Redis user they connect as, and no password of either role', () => {
    const asAnalyst = store.view(prod, 'analyst');
    expect(asAnalyst).toMatchObject({ id: 'prod', username: 'cb-analyst', hasPassword: true, definitionLocked: true });
    expect(store.view(open, 'analyst')).toMatchObject({ id: 'open', username: 'reader', hasPassword: false });
    expect(store.view(prod, 'ops')).toMatchObject({ id: 'prod', username: 'ops', hasPassword: true });
    for (const v of [asAnalyst, store.view(prod, 'ops')]) {
      expect(ProfileView.parse(v)).toEqual(v);
      expect(JSON.stringify(v)).not.toMatch(/Secret/);
    }
  });
});
