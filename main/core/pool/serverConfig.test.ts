import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadServerConfig } from './serverConfig';
import { appErrorOf } from '../../../testing/appErrorOf';

const dir = mkdtempSync(join(tmpdir(), 'cacheboard-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function configFile(content: unknown): string {
  const file = join(dir, `cacheboard-${n++}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('loadServerConfig', () => {
  it('reads url and field profiles as read-only config profiles, passwords from env and secret files', () => {
    const secret = join(dir, 'secret');
    writeFileSync(secret, 'from-file\n');
    const file = configFile({
      profiles: [
        { id: 'prod', name: 'Prod', url: 'redis://cache.internal:6380/2', passwordEnv: 'PROD_REDIS_PASSWORD' },
        { id: 'stage', name: 'Stage', host: 'stage.internal', username: 'ops', passwordFile: secret, tls: { enabled: true } },
        { id: 'dev', name: 'Dev', host: 'localhost' },
      ],
    });
    const profiles = loadServerConfig(file, { PROD_REDIS_PASSWORD: 'from-env' });
    expect(profiles).toEqual([
      {
        id: 'prod',
        source: 'config',
        spec: {
          name: 'Prod',
          host: 'cache.internal',
          port: 6380,
          db: 2,
          password: 'from-env',
          tls: { enabled: false, rejectUnauthorized: true },
        },
      },
      {
        id: 'stage',
        source: 'config',
        spec: {
          name: 'Stage',
          host: 'stage.internal',
          port: 6379,
          db: 0,
          username: 'ops',
          password: 'from-file',
          tls: { enabled: true, rejectUnauthorized: true },
        },
      },
      {
        id: 'dev',
        source: 'config',
        spec: { name: 'Dev', host: 'localhost', port: 6379, db: 0, tls: { enabled: false, rejectUnauthorized: true } },
      },
    ]);
  });

  it('names the file and the field path of an invalid value', () => {
    const file = configFile({ profiles: [{ id: 'a', name: 'A', host: 'h', port: 70000 }] });
    const err = appErrorOf(() => loadServerConfig(file, {}));
    expect(err.code).toBe('VALIDATION');
    expect(err.message).toBe(`${file}: profiles[0].port: port must be between 1 and 65535`);
  });

  it('names the field of a bad url, an unknown key and a bad id, one line each', () => {
    const file = configFile({
      profiles: [
        { id: 'ok', name: 'A', url: 'http://x' },
        { id: 'b', name: 'B', host: 'h', passwrd: 'typo' },
        { id: 'has space', name: 'C', host: 'h' },
      ],
    });
    const lines = appErrorOf(() => loadServerConfig(file, {})).message.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`${file}: profiles[0].url: url must start with redis:// or rediss://, not http://`);
    expect(lines[1]).toMatch(new RegExp(`^${file}: profiles\\[1\\]: .*passwrd`));
    expect(lines[2]).toMatch(new RegExp(`^${file}: profiles\\[2\\]\\.id: `));
  });

  it('names the environment variable that is not set', () => {
    const file = configFile({ profiles: [{ id: 'p', name: 'P', host: 'h', passwordEnv: 'PROD_REDIS_PASSWORD' }] });
    expect(appErrorOf(() => loadServerConfig(file, {})).message).toBe(`${file}: profiles[0].passwordEnv: environment variable PROD_REDIS_PASSWORD is not set`);
  });

  it('refuses two password sources, duplicate ids, an unreadable password file and a missing CA file', () => {
    const file = configFile({
      profiles: [
        { id: 'a', name: 'A', url: 'redis://:pw@h', passwordEnv: 'X' },
        { id: 'b', name: 'B', host: 'h', passwordFile: '/no/such/secret' },
        { id: 'b', name: 'B2', host: 'h', tls: { enabled: true, caFile: '/no/such/ca.pem' } },
      ],
    });
    const message = appErrorOf(() => loadServerConfig(file, { X: 'x' })).message;
    expect(message).toContain(`${file}: profiles[0]: give the password one way only`);
    expect(message).toContain(`${file}: profiles[1].passwordFile: cannot read /no/such/secret: ENOENT`);
    expect(message).toContain(`${file}: profiles[2].id: duplicate id "b"`);
    expect(message).toContain(`${file}: profiles[2].tls.caFile: file not found: /no/such/ca.pem`);
  });

  it('reads analyst credentials from inline, env or a secret file, and keeps them out of the spec', () => {
    const secret = join(dir, 'analyst-secret');
    writeFileSync(secret, 'analyst-from-file\n');
    const file = configFile({
      profiles: [
        { id: 'prod', name: 'Prod', host: 'h', passwordEnv: 'OPS_PW', analyst: { username: 'cb-analyst', passwordFile: secret } },
        { id: 'stage', name: 'Stage', host: 'h', analyst: { username: 'reader', passwordEnv: 'ANALYST_PW' } },
        { id: 'dev', name: 'Dev', host: 'h', analyst: { username: 'nopass-reader' } },
      ],
    });
    const [prod, stage, dev] = loadServerConfig(file, { OPS_PW: 'ops-pw', ANALYST_PW: 'analyst-from-env' });
    expect(prod).toMatchObject({ spec: { password: 'ops-pw' }, analyst: { username: 'cb-analyst', password: 'analyst-from-file' } });
    expect(prod?.spec.username).toBeUndefined();
    expect(stage?.analyst).toEqual({ username: 'reader', password: 'analyst-from-env' });
    expect(dev?.analyst).toEqual({ username: 'nopass-reader' });
  });

  it('names the analyst field that is wrong', () => {
    const file = configFile({
      profiles: [
        { id: 'a', name: 'A', host: 'h', analyst: { username: 'r', passwordEnv: 'NOT_SET' } },
        { id: 'b', name: 'B', host: 'h', analyst: { username: 'r', password: 'x', passwordFile: '/no/such' } },
        { id: 'c', name: 'C', host: 'h', analyst: { password: 'x' } },
        { id: 'd', name: 'D', host: 'h', analyst: { username: 'r', passwrd: 'typo' } },
      ],
    });
    const lines = appErrorOf(() => loadServerConfig(file, {})).message.split('\n');
    expect(lines[0]).toBe(`${file}: profiles[0].analyst.passwordEnv: environment variable NOT_SET is not set`);
    expect(lines[1]).toBe(`${file}: profiles[1].analyst: give the password one way only: password (or in url), passwordEnv or passwordFile`);
    expect(lines[2]).toMatch(new RegExp(`^${file}: profiles\\[2\\]\\.analyst\\.username: `));
    expect(lines[3]).toMatch(new RegExp(`^${file}: profiles\\[3\\]\\.analyst: .*passwrd`));
  });

  it('names the file when it is missing or not JSON, and the path when the shape is wrong', () => {
    expect(appErrorOf(() => loadServerConfig(join(dir, 'nope.json'), {})).message).toBe(`${join(dir, 'nope.json')}: file not found`);
    const bad = configFile('{ not json');
    expect(appErrorOf(() => loadServerConfig(bad, {})).message).toMatch(new RegExp(`^${bad}: `));
    const shape = configFile({ profile: [] });
    expect(appErrorOf(() => loadServerConfig(shape, {})).message).toMatch(new RegExp(`^${shape}: `));
  });

  it('reads cluster and sentinel topologies, the sentinel password from the environment, and names a bad seed', () => {
    const file = configFile({
      profiles: [
        { id: 'c', name: 'Cluster', url: 'redis://c1:7000', topology: { kind: 'cluster', seeds: ['c2:7001'] } },
        {
          id: 's',
          name: 'HA',
          topology: { kind: 'sentinel', sentinels: ['s1', 's2:26380'], masterName: 'm', sentinelPasswordEnv: 'SENTINEL_PW' },
          passwordEnv: 'DATA_PW',
        },
      ],
    });
    const [cluster, sentinel] = loadServerConfig(file, { SENTINEL_PW: 'from-env', DATA_PW: 'data' });
    expect(cluster?.spec.topology).toEqual({
      kind: 'cluster',
      seeds: [
        { host: 'c1', port: 7000 },
        { host: 'c2', port: 7001 },
      ],
    });
    expect(sentinel?.spec).toMatchObject({
      host: 's1',
      port: 26379,
      password: 'data',
      topology: { kind: 'sentinel', masterName: 'm', sentinelPassword: 'from-env' },
    });
    const bad = configFile({
      profiles: [
        { id: 'c', name: 'C', topology: { kind: 'cluster', seeds: ['c1:7000', 'c2:0'] } },
        { id: 's', name: 'S', topology: { kind: 'sentinel', sentinels: ['s1'], masterName: 'm', sentinelPasswordEnv: 'UNSET' } },
      ],
    });
    const lines = appErrorOf(() => loadServerConfig(bad, {})).message.split('\n');
    expect(lines[0]).toBe(`${bad}: profiles[0].topology.seeds[1]: "c2:0": port must be between 1 and 65535`);
    expect(lines[1]).toBe(`${bad}: profiles[1].topology.sentinelPasswordEnv: environment variable UNSET is not set`);
  });
});
