import { afterAll, describe, expect, it } from 'vitest';
import type { Commandlogs } from '../../../app/schemas/metrics';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { logsWithoutValues, readCommandlogs } from './commandlog';
import { logEntries } from './slowlog';
import type { SlowlogRecord } from './types';

/**
 * COMMANDLOG GET's reply as valkey-io/valkey-doc commands/commandlog-get.md describes an entry:
 * id, unix time, the type's measure (bytes for large-request and large-reply), the arguments,
 * the client's address, its name. Bulk strings come as Buffers (ioredis callBuffer).
 */
const LARGE_REPLY = [
  [
    Buffer.from('14'),
    1_741_000_000,
    1_048_600,
    [Buffer.from('HGETALL'), Buffer.from('user:\xff', 'latin1')],
    Buffer.from('10.0.0.7:51234'),
    Buffer.from('api-3'),
  ],
  [
    13,
    1_740_999_990,
    262_144,
    [Buffer.from('LRANGE'), Buffer.from('feed'), Buffer.from('0'), Buffer.from('-1')],
    Buffer.from('10.0.0.8:40000'),
    Buffer.from(''),
  ],
];

describe('COMMANDLOG', () => {
  it("reads a large-reply log's entries with their size in bytes, binary arguments escaped", () => {
    expect(logEntries(LARGE_REPLY)).toEqual([
      { id: 14, at: 1_741_000_000_000, value: 1_048_600, args: ['HGETALL', 'user:\\xff'], client: '10.0.0.7:51234', clientName: 'api-3' },
      { id: 13, at: 1_740_999_990_000, value: 262_144, args: ['LRANGE', 'feed', '0', '-1'], client: '10.0.0.8:40000', clientName: '' },
    ]);
    expect(logEntries(null)).toEqual([]);
  });

  it('gives an analyst the command and key of every log, never the values', () => {
    const entries = logEntries(LARGE_REPLY).map(({ value, ...e }) => ({ ...e, bytes: value }));
    const read: { slowlog: SlowlogRecord[]; commandlog: Commandlogs } = {
      slowlog: [{ id: 1, at: 0, durationUs: 5, args: ['SET', 'k', 'secret'], client: '', clientName: '' }],
      commandlog: { largeRequest: { length: 0, entries: [] }, largeReply: { length: 2, entries } },
    };
    const hidden = logsWithoutValues(read);
    expect(hidden.slowlog[0]).toMatchObject({ args: ['SET', 'k'], argsHidden: 1 });
    expect(hidden.commandlog.largeReply.entries.map((e) => [e.args, e.argsHidden])).toEqual([
      [['HGETALL', 'user:\\xff'], 0],
      [['LRANGE', 'feed'], 2],
    ]);
    expect(hidden.commandlog.largeReply.length).toBe(2);
  });

  describe('on a server without COMMANDLOG', () => {
    const server = useRedis();
    afterAll(closeAdmins);

    it('reads nothing when COMMAND INFO names no COMMANDLOG (Redis 7.0), so the page shows the slow log alone', async () => {
      const admin = await adminClient(server());
      const has = await admin.call('COMMAND', 'INFO', 'commandlog');
      // Where the server does have it (Valkey 8.1+), this test's premise is gone: it says so rather than passing vacuously.
      expect(Array.isArray(has) && Array.isArray(has[0]), 'this server has COMMANDLOG').toBe(false);
      expect(await readCommandlogs(admin, 10)).toBeUndefined();
    });
  });
});
