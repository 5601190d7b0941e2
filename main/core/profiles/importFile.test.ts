import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildExport } from './exportFile';
import { planImport, readImportFile } from './importFile';
import { ardmConnections, ardmExportFile, redisInsightExport } from './importTestKit';
import { appErrorOf } from '../../../testing/appErrorOf';

const dir = mkdtempSync(join(tmpdir(), 'cacheboard-import-'));
const caFile = join(dir, 'ca.pem');
writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function plan(content: string, passphrase?: string) {
  return planImport(readImportFile(content, passphrase));
}

describe('RedisInsight export', () => {
  const p = plan(JSON.stringify(redisInsightExport()));
  const [standalone, cluster, sentinel, ssh] = p.profiles.map((x) => x.spec);

  it('is recognised and every database becomes a profile', () => {
    expect(p.format).toBe('redisinsight');
    expect(p.secretsIncluded).toBe(true);
    expect(p.profiles.map((x) => x.spec.name)).toEqual(['orders-cache', 'sessions cluster', 'queue (mymaster)', 'behind bastion']);
  });

  it('maps a standalone database with its user, password, DB and tags', () => {
    expect(standalone).toEqual({
      name: 'orders-cache',
      host: 'orders.redis.internal',
      port: 12000,
      db: 2,
      username: 'app',
      password: 'orders-secret',
      tls: { enabled: false, rejectUnauthorized: true },
      tags: ['env:prod'],
    });
    expect(p.profiles[0]?.ignored.map((i) => i.field)).toEqual(['id', 'provider', 'lastConnection', 'modules', 'timeout', 'compressor', 'version']);
  });

  it('maps a cluster with its nodes as seeds, TLS settings, and says why PEM certificates are left out', () => {
    expect(cluster?.topology).toEqual({
      kind: 'cluster',
      seeds: [
        { host: '10.0.0.11', port: 7000 },
        { host: '10.0.0.12', port: 7000 },
        { host: '10.0.0.13', port: 7000 },
      ],
    });
    expect(cluster?.tls).toEqual({ enabled: true, servername: 'sessions.internal', rejectUnauthorized: false });
    const ignored = p.profiles[1]?.ignored ?? [];
    expect(ignored.find((i) => i.field === 'caCert')?.why).toMatch(/PEM text/);
    expect(ignored.find((i) => i.field === 'clientCert')?.why).toMatch(/no TLS client certificate/);
  });

  it("maps a sentinel database: the sentinel's user and password on the sentinels, sentinelMaster's on the data nodes", () => {
    expect(sentinel).toMatchObject({
      host: 'sentinel-1.internal',
      port: 26379,
      db: 1,
      username: 'default',
      password: 'master-secret',
      topology: {
        kind: 'sentinel',
        masterName: 'mymaster',
        sentinelUsername: 'sentinel-user',
        sentinelPassword: 'sentinel-secret',
        sentinels: [
          { host: 'sentinel-1.internal', port: 26379 },
          { host: 'sentinel-2.internal', port: 26379 },
        ],
      },
    });
  });

  it('maps SSH with a password', () => {
    expect(ssh?.ssh).toEqual({ host: 'bastion.example.com', port: 2222, user: 'deploy', auth: { kind: 'password', password: 'ssh-secret' } });
    expect(p.profiles[3]?.secrets).toEqual(['SSH secret']);
  });

  it('reads the base64 form RedisInsight also accepts', () => {
    const b64 = Buffer.from(JSON.stringify(redisInsightExport())).toString('base64');
    const again = plan(b64);
    expect(again.format).toBe('redisinsight');
    expect(again.profiles.map((x) => x.spec)).toEqual(p.profiles.map((x) => x.spec));
  });
});

describe("Another Redis Desktop Manager's export", () => {
  const p = plan(ardmExportFile(caFile));
  const [local, cluster, sentinel, tlsSsh] = p.profiles.map((x) => x.spec);

  it('is recognised from its base64 file', () => {
    expect(p.format).toBe('ardm');
    expect(p.profiles).toHaveLength(4);
  });

  it('maps auth to the password and leaves ARDM-only settings with a reason', () => {
    expect(local).toEqual({
      name: 'local dev',
      host: '127.0.0.1',
      port: 6379,
      db: 0,
      password: 'local-secret',
      tls: { enabled: false, rejectUnauthorized: true },
    });
    const ignored = p.profiles[0]?.ignored ?? [];
    expect(ignored.map((i) => i.field)).toEqual(['separator', 'connectionReadOnly', 'key', 'order']);
    expect(ignored.find((i) => i.field === 'connectionReadOnly')?.why).toMatch(/Analyst access/);
  });

  it('names a connection without a name by host:port and reads a port written as text', () => {
    expect(cluster).toMatchObject({
      name: '10.1.0.5:7001',
      port: 7001,
      password: 'cluster-secret',
      topology: { kind: 'cluster', seeds: [{ host: '10.1.0.5', port: 7001 }] },
    });
  });

  it("maps a sentinel connection: auth is the sentinels' password, nodePassword the data nodes'", () => {
    expect(sentinel).toMatchObject({
      password: 'node-secret',
      topology: { kind: 'sentinel', masterName: 'mymaster', sentinelPassword: 'sentinel-secret', sentinels: [{ host: 'sentinel.internal', port: 26379 }] },
    });
  });

  it('maps TLS with its CA file path and SSH with its key file, keeping certificate checks on', () => {
    expect(tlsSsh?.tls).toEqual({ enabled: true, caFile, servername: 'redis.internal', rejectUnauthorized: true });
    expect(tlsSsh?.ssh).toEqual({
      host: 'jump.example.com',
      port: 22,
      user: 'ops',
      auth: { kind: 'key', keyFile: '/home/ops/.ssh/id_ed25519', passphrase: 'key-secret' },
    });
    expect(p.profiles[3]?.ignored.find((i) => i.field === 'sslOptions')?.why).toMatch(/verif/);
  });

  it('is recognised as plain JSON too, by the fields only ARDM writes', () => {
    expect(plan(JSON.stringify(ardmConnections(caFile))).format).toBe('ardm');
  });
});

describe('a file that cannot be imported', () => {
  it('names the entry and the field of a bad value', () => {
    const entries = redisInsightExport();
    entries[2] = { ...(entries[2] as object), port: 'not-a-port' };
    const e = appErrorOf(() => plan(JSON.stringify(entries)));
    expect(e.code).toBe('VALIDATION');
    expect(e.message).toMatch(/^Entry 3 of 4 \(“queue \(mymaster\)”\), field port: /);
    expect(e.field).toBe('entries[2].port');
  });

  it('names the entry whose CA file does not exist on this server', () => {
    const e = appErrorOf(() => plan(ardmExportFile(join(dir, 'missing-ca.pem'))));
    expect(e.message).toMatch(/^Entry 4 of 4 \(“tls via ssh”\), tls.caFile: file not found/);
    expect(e.field).toBe('entries[3].tls.caFile');
  });

  it('names an entry that is not an object', () => {
    const e = appErrorOf(() => plan(JSON.stringify([...redisInsightExport(), 'oops'])));
    expect(e.message).toBe('Entry 5 of 5 is not an object with connection fields.');
    expect(e.field).toBe('entries[4]');
  });

  it('refuses text that is neither JSON nor base64 JSON, an empty list and an unknown object', () => {
    expect(appErrorOf(() => plan('{"host": ')).message).toMatch(/neither JSON nor the base64 of JSON/);
    expect(appErrorOf(() => plan('[]')).message).toBe('The file holds no connections.');
    expect(appErrorOf(() => plan('{"databases": []}')).message).toMatch(/Not a connections file Cacheboard knows/);
  });

  it("refuses a Cacheboard file's unknown version, naming the field", () => {
    const e = appErrorOf(() => plan(JSON.stringify({ format: 'cacheboard-profiles', version: 2, profiles: [] })));
    expect(e.message).toMatch(/version/);
  });
});

describe("Cacheboard's own file", () => {
  const stored = {
    id: 'a',
    source: 'user' as const,
    spec: { name: 'A', host: 'a.internal', port: 6379, db: 0, password: 'pw-a', tls: { enabled: false, rejectUnauthorized: true } },
  };

  it('asks for the passphrase when the file holds sealed secrets', () => {
    const { content } = buildExport([stored], { passphrase: 'export passphrase' });
    const e = appErrorOf(() => plan(content));
    expect(e.field).toBe('passphrase');
    expect(e.message).toMatch(/sealed with a passphrase/);
  });

  it('refuses a wrong passphrase before reading any profile', () => {
    const { content } = buildExport([stored], { passphrase: 'export passphrase' });
    const e = appErrorOf(() => plan(content, 'not the passphrase'));
    expect(e.field).toBe('passphrase');
    expect(e.message).toMatch(/Wrong passphrase.*Nothing was imported/);
  });

  it('names a bad entry by index and field', () => {
    const { content } = buildExport([stored, { ...stored, id: 'b', spec: { ...stored.spec, name: 'B' } }]);
    const file = JSON.parse(content) as { profiles: Array<Record<string, unknown>> };
    file.profiles[1] = { ...file.profiles[1], colour: 'red' };
    const e = appErrorOf(() => plan(JSON.stringify(file)));
    expect(e.message).toMatch(/^Entry 2 of 2 \(“B”\)/);
    expect(e.message).toMatch(/colour/);
  });
});
