/**
 * Export files of the peers, written from their documented formats (RedisInsight's database
 * export, read back by its DatabaseImportService; ARDM's Settings > Export connections), for
 * the importers' tests and the e2e spec.
 */

/** RedisInsight "Export databases" with passwords: one database of each kind, fields as it writes them. */
export function redisInsightExport(over: { host?: string; port?: number; password?: string } = {}): unknown[] {
  return [
    {
      id: '6b0c1f1e-2f55-4d3a-9a0e-0f4d1c2b3a01',
      host: over.host ?? 'orders.redis.internal',
      port: over.port ?? 12000,
      name: 'orders-cache',
      db: 2,
      username: 'app',
      password: over.password ?? 'orders-secret',
      connectionType: 'STANDALONE',
      nameFromProvider: null,
      provider: 'REDIS',
      lastConnection: '2024-05-02T10:11:12.000Z',
      modules: [{ name: 'ReJSON', version: 20609, semanticVersion: '2.6.9' }],
      tls: false,
      ssh: false,
      timeout: 30000,
      compressor: 'NONE',
      version: '7.2.4',
      forceStandalone: false,
      tags: [{ key: 'env', value: 'prod' }],
    },
    {
      id: '6b0c1f1e-2f55-4d3a-9a0e-0f4d1c2b3a02',
      host: '10.0.0.11',
      port: 7000,
      name: 'sessions cluster',
      db: 0,
      password: 'cluster-secret',
      connectionType: 'CLUSTER',
      nodes: [
        { host: '10.0.0.11', port: 7000 },
        { host: '10.0.0.12', port: 7000 },
        { host: '10.0.0.13', port: 7000 },
      ],
      tls: true,
      tlsServername: 'sessions.internal',
      verifyServerCert: false,
      caCert: { id: 'c1', name: 'internal-ca', certificate: '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n' },
      clientCert: {
        id: 'c2',
        name: 'client',
        certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
        key: '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n',
      },
      ssh: false,
      modules: [],
    },
    {
      id: '6b0c1f1e-2f55-4d3a-9a0e-0f4d1c2b3a03',
      host: 'sentinel-1.internal',
      port: 26379,
      name: 'queue (mymaster)',
      db: 1,
      username: 'sentinel-user',
      password: 'sentinel-secret',
      connectionType: 'SENTINEL',
      sentinelMaster: { name: 'mymaster', username: 'default', password: 'master-secret' },
      nodes: [
        { host: 'sentinel-1.internal', port: 26379 },
        { host: 'sentinel-2.internal', port: 26379 },
      ],
      tls: false,
      ssh: false,
    },
    {
      id: '6b0c1f1e-2f55-4d3a-9a0e-0f4d1c2b3a04',
      host: '127.0.0.1',
      port: 6379,
      name: 'behind bastion',
      db: 0,
      connectionType: 'STANDALONE',
      tls: false,
      ssh: true,
      sshOptions: { host: 'bastion.example.com', port: 2222, username: 'deploy', password: 'ssh-secret', privateKey: null, passphrase: null },
    },
  ];
}

/** ARDM's connections as its storage keeps them (key, order, separator, "" for unset fields). */
export function ardmConnections(caFile: string): unknown[] {
  return [
    {
      host: '127.0.0.1',
      port: 6379,
      auth: 'local-secret',
      username: '',
      name: 'local dev',
      separator: ':',
      cluster: false,
      connectionReadOnly: true,
      key: '1714650000000_a1b2c',
      order: 0,
    },
    {
      host: '10.1.0.5',
      port: '7001',
      auth: 'cluster-secret',
      username: '',
      name: '',
      separator: ':',
      cluster: true,
      connectionReadOnly: false,
      key: '1714650000001_d3e4f',
      order: 1,
    },
    {
      host: 'sentinel.internal',
      port: 26379,
      auth: 'sentinel-secret',
      username: '',
      name: 'sentinel queue',
      separator: ':',
      cluster: false,
      sentinelOptions: { masterName: 'mymaster', nodePassword: 'node-secret' },
      key: '1714650000002_g5h6i',
      order: 2,
    },
    {
      host: '10.2.0.9',
      port: 6380,
      auth: '',
      username: 'reader',
      name: 'tls via ssh',
      separator: ':',
      cluster: false,
      sslOptions: { key: '', cert: '', ca: caFile, servername: 'redis.internal' },
      sshOptions: {
        host: 'jump.example.com',
        port: 22,
        username: 'ops',
        password: '',
        privatekey: '/home/ops/.ssh/id_ed25519',
        passphrase: 'key-secret',
        timeout: 30,
        beforeconnect: '',
      },
      key: '1714650000003_j7k8l',
      order: 3,
    },
  ];
}

/** ARDM's export file: the base64 of the JSON of its connections. */
export function ardmExportFile(caFile: string): string {
  return Buffer.from(JSON.stringify(ardmConnections(caFile))).toString('base64');
}
