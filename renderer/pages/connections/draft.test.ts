import { describe, expect, it } from 'vitest';
import { ProfileId } from '../../../app/schemas/common';
import { ProfileDraft } from '../../../app/schemas/connections';
import { whereOf } from '../../lib/address';
import { EMPTY_FORM, formFieldOf, formFromProfile, toDraft } from './draft';

describe('toDraft', () => {
  it('sends only what was filled in, with numbers as numbers', () => {
    const d = toDraft({ ...EMPTY_FORM, name: 'local', host: ' 127.0.0.1 ', port: '6380', db: '2' });
    expect(d).toEqual({
      name: 'local',
      host: '127.0.0.1',
      port: 6380,
      db: 2,
      tls: { enabled: false, rejectUnauthorized: true },
      analyst: { access: 'shared' },
      tags: [],
    });
  });
  it('sends tags split on commas, and an empty list when the field is cleared (the edit removes them)', () => {
    expect(toDraft({ ...EMPTY_FORM, tags: ' prod , team/eu,, ' }).tags).toEqual(['prod', 'team/eu']);
    expect(toDraft({ ...EMPTY_FORM, tags: '' }).tags).toEqual([]);
  });
  it('sends a URL alone when host fields are empty', () => {
    const d = toDraft({ ...EMPTY_FORM, name: 'u', url: 'rediss://u:p@h:6390/1' });
    expect(d.url).toBe('rediss://u:p@h:6390/1');
    expect(d.host).toBeUndefined();
    expect(d.port).toBeUndefined();
  });
  it('leaves the password out when it is empty or being cleared', () => {
    expect(toDraft({ ...EMPTY_FORM, password: '' }).password).toBeUndefined();
    expect(toDraft({ ...EMPTY_FORM, password: 's3cret', clearPassword: true }).password).toBeUndefined();
    expect(toDraft({ ...EMPTY_FORM, password: 's3cret' }).password).toBe('s3cret');
  });
  it('carries TLS options, with verification as chosen', () => {
    const d = toDraft({ ...EMPTY_FORM, tlsEnabled: true, caFile: '/ca.pem', servername: 'r.example', verifyCert: false });
    expect(d.tls).toEqual({ enabled: true, rejectUnauthorized: false, caFile: '/ca.pem', servername: 'r.example' });
  });
});

describe('toDraft topologies', () => {
  it('sends no topology for standalone, so drafts stay as they were', () => {
    expect(toDraft({ ...EMPTY_FORM, name: 'x', host: 'h', seeds: 'ignored:1' })).not.toHaveProperty('topology');
  });

  it('sends a cluster with its extra seeds split on commas, spaces and lines, which the contract accepts', () => {
    const d = toDraft({ ...EMPTY_FORM, name: 'c', topology: 'cluster', url: 'redis://h1:7000', seeds: 'h2:7001,  h3:7002\n[::1]:7003' });
    expect(d.topology).toEqual({ kind: 'cluster', seeds: ['h2:7001', 'h3:7002', '[::1]:7003'] });
    expect(ProfileDraft.parse(d).topology).toMatchObject({
      kind: 'cluster',
      seeds: [{ host: 'h1', port: 7000 }, { host: 'h2' }, { host: 'h3' }, { host: '::1' }],
    });
  });

  it('sends a sentinel set with its master name; the sentinel password only when typed and not being cleared', () => {
    const v = {
      ...EMPTY_FORM,
      name: 's',
      topology: 'sentinel' as const,
      host: 's1',
      sentinels: 's2:26380',
      masterName: ' mymaster ',
      sentinelUsername: 'watch',
    };
    expect(toDraft(v).topology).toEqual({ kind: 'sentinel', sentinels: ['s2:26380'], masterName: 'mymaster', sentinelUsername: 'watch' });
    expect(toDraft({ ...v, sentinelPassword: 'sp' }).topology).toMatchObject({ sentinelPassword: 'sp' });
    expect(toDraft({ ...v, sentinelPassword: 'sp', clearPassword: true }).topology).not.toHaveProperty('sentinelPassword');
    expect(ProfileDraft.parse(toDraft(v))).toMatchObject({ host: 's1', port: 26379 });
  });
});

describe('formFromProfile', () => {
  it('puts the first seed or sentinel in host:port and the others in the list', () => {
    const base = {
      id: ProfileId.parse('p'),
      name: 'n',
      host: 'h1',
      port: 7000,
      db: 0,
      hasPassword: false,
      tls: { enabled: false, rejectUnauthorized: true },
      source: 'user' as const,
      analystAccess: 'shared' as const,
      hasAnalystPassword: false,
      definitionLocked: false,
      readOnlyData: false,
    };
    const c = formFromProfile({ ...base, topology: { kind: 'cluster', seeds: ['h1:7000', 'h2:7001'] } });
    expect(c).toMatchObject({ topology: 'cluster', host: 'h1', port: '7000', seeds: 'h2:7001' });
    const s = formFromProfile({ ...base, topology: { kind: 'sentinel', sentinels: ['h1:7000', 's2:26379'], masterName: 'm', hasSentinelPassword: true } });
    expect(s).toMatchObject({ topology: 'sentinel', sentinels: 's2:26379', masterName: 'm', sentinelPassword: '' });
    expect(
      whereOf({ ...base, db: 2, topology: { kind: 'sentinel', sentinels: ['h1:7000', 's2:26379'], masterName: 'm', hasSentinelPassword: false } }).text,
    ).toBe('m/2 via h1:7000 (+1 sentinels)');
  });

  it('never prefills the password', () => {
    const v = formFromProfile({
      id: ProfileId.parse('p1'),
      name: 'prod',
      host: 'h',
      port: 6379,
      db: 3,
      username: 'ops',
      hasPassword: true,
      tls: { enabled: true, rejectUnauthorized: true },
      source: 'user',
      analystAccess: 'shared',
      hasAnalystPassword: false,
      definitionLocked: false,
      readOnlyData: false,
    });
    expect(v).toMatchObject({ name: 'prod', port: '6379', db: '3', username: 'ops', password: '', tlsEnabled: true });
  });
});

describe('formFieldOf', () => {
  it('maps nested contract paths onto form fields', () => {
    expect(formFieldOf('port')).toBe('port');
    expect(formFieldOf('profile.tls.caFile')).toBe('tls.caFile');
    expect(formFieldOf('draft.url')).toBe('url');
  });
  it("sends a bad address of a list to the list's input", () => {
    expect(formFieldOf('profile.topology.seeds.2')).toBe('topology.seeds');
    expect(formFieldOf('draft.topology.sentinels')).toBe('topology.sentinels');
    expect(formFieldOf('topology.masterName')).toBe('topology.masterName');
  });
  it('leaves fields the form does not have to the alert area', () => {
    expect(formFieldOf('id')).toBeUndefined();
    expect(formFieldOf(undefined)).toBeUndefined();
  });
});

describe("analysts' access in the form", () => {
  it('sends the choice: the ops user shared by default, a user of their own (password only when typed), or none', () => {
    expect(toDraft({ ...EMPTY_FORM, name: 'a', host: 'h' }).analyst).toEqual({ access: 'shared' });
    expect(toDraft({ ...EMPTY_FORM, name: 'a', host: 'h', analystAccess: 'none' }).analyst).toEqual({ access: 'none' });
    const own = { ...EMPTY_FORM, name: 'a', host: 'h', analystAccess: 'user' as const, analystUsername: 'cb-analyst' };
    expect(toDraft(own).analyst).toEqual({ access: 'user', username: 'cb-analyst' });
    expect(toDraft({ ...own, analystPassword: 'apw' }).analyst).toEqual({ access: 'user', username: 'cb-analyst', password: 'apw' });
    expect(toDraft({ ...own, analystPassword: 'apw', clearPassword: true }).analyst).toEqual({ access: 'user', username: 'cb-analyst' });
    expect(ProfileDraft.parse(toDraft(own)).analyst).toEqual({ access: 'user', username: 'cb-analyst' });
  });

  it('starts an edit from the saved access, never with a password', () => {
    const base = {
      id: ProfileId.parse('p'),
      name: 'n',
      host: 'h',
      port: 1,
      db: 0,
      hasPassword: false,
      tls: { enabled: false, rejectUnauthorized: true },
      source: 'user' as const,
      definitionLocked: false,
      readOnlyData: false,
    };
    expect(formFromProfile({ ...base, analystAccess: 'own', analystUsername: 'cb-analyst', hasAnalystPassword: true })).toMatchObject({
      analystAccess: 'user',
      analystUsername: 'cb-analyst',
      analystPassword: '',
    });
    expect(formFromProfile({ ...base, analystAccess: 'none', hasAnalystPassword: false }).analystAccess).toBe('none');
  });
});
