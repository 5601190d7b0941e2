import { describe, expect, it } from 'vitest';
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
    });
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

describe('formFromProfile', () => {
  it('never prefills the password', () => {
    const v = formFromProfile({
      id: 'p1',
      name: 'prod',
      host: 'h',
      port: 6379,
      db: 3,
      username: 'ops',
      hasPassword: true,
      tls: { enabled: true, rejectUnauthorized: true },
      source: 'user',
      readOnly: false,
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
  it('leaves fields the form does not have to the alert area', () => {
    expect(formFieldOf('id')).toBeUndefined();
    expect(formFieldOf(undefined)).toBeUndefined();
  });
});
