import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { adminClient, useRedis } from '../../../../testing/redis';
import { MSET_PAIRS } from '../sources/msetRun';
import { runJob, snapshotDb, useLoadDirs } from './loadTestKit';

/*
 * String rows without a TTL go to one server as MSETs (MsetRun): the data
 * must be exactly what a SET per row leaves, a TTL must keep SET … EX, and an
 * error reply must name the MSET's rows.
 */

const redis = useRedis({ args: ['--save', ''] });
const dirs = useLoadDirs('cacheboard-mset-');

let admin: Redis;
beforeEach(async () => {
  admin = await adminClient(redis());
  await admin.flushall();
  await admin.config('RESETSTAT');
});
afterEach(() => {
  delete process.env['CACHEBOARD_MSET_PAIRS'];
});

/** A CSV field, quoted: any bytes, `"` doubled. */
function quoted(b: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from('"')];
  for (const byte of b) parts.push(byte === 0x22 ? Buffer.from('""') : Buffer.from([byte]));
  parts.push(Buffer.from('"'));
  return Buffer.concat(parts);
}

/** Calls of each command since RESETSTAT, from INFO commandstats. */
async function calls(): Promise<Record<string, number>> {
  const info = await admin.info('commandstats');
  const out: Record<string, number> = {};
  for (const m of info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) out[m[1] as string] = Number(m[2]);
  return out;
}

interface Rows {
  path: string;
  /** The last value of each key, as a load must leave it. */
  expected: Map<string, Buffer>;
  rows: number;
}

/**
 * Rows with repeated keys (also inside one MSET), multi-byte and
 * control-character keys, binary values (NUL, CR LF, 0xff, quotes), and a few
 * values large enough to close an MSET by bytes and straddle batch cuts.
 */
function writeRows(name: string, count: number): Rows {
  let seed = 7;
  const rnd = (n: number): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % n;
  const lines: Buffer[] = [Buffer.from('id,value\n')];
  const expected = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const k = rnd(4) === 0 ? `dup:${rnd(50)}` : `k:${i}:ü€\t\r\n"x"`;
    const size = i % 997 === 0 ? 70_000 + rnd(50_000) : rnd(200);
    const v = Buffer.alloc(size);
    for (let j = 0; j < size; j++) v[j] = rnd(256);
    lines.push(Buffer.concat([quoted(Buffer.from(k)), Buffer.from(','), quoted(v), Buffer.from('\n')]));
    expected.set(`key:${k}`, v);
  }
  const path = join(dirs.dir(), name);
  writeFileSync(path, Buffer.concat(lines));
  return { path, expected, rows: count };
}

const mapping = { key: 'key:{id}', type: 'string' as const, value: 'value' };

/** A swap load's own SETs of its staging marker: written before the rows, re-stamped "old-data" in the swap's MULTI. */
const MARKER_SETS = 2;

describe('string rows as MSET', () => {
  it('leaves exactly the data a SET per row leaves, in fewer commands', async () => {
    const { path, expected, rows } = writeRows('mixed.csv', 20_000);
    const { report } = await runJob(redis(), { path, format: 'csv', mode: 'swap', mapping, journalDir: dirs.journalDir() });
    expect(report).toMatchObject({ outcome: 'ok', records: rows, errors: 0, verify: { keys: 'ok', expectedKeys: expected.size } });
    expect(report.commands).toBeGreaterThanOrEqual(Math.ceil(rows / MSET_PAIRS));
    expect(report.commands).toBeLessThan(rows / 4);
    expect(report.replies).toBe(report.commands);
    const stats = await calls();
    expect(stats['mset']).toBe(report.commands);
    // The only SETs are the staging marker's on the control connection (stagingMarker.ts): no row is a SET.
    expect(stats['set']).toBe(MARKER_SETS);

    // Every key holds its last value, byte for byte.
    await admin.select(0);
    expect(await admin.dbsize()).toBe(expected.size);
    for (const [key, value] of expected) expect((await admin.getBuffer(key))?.equals(value)).toBe(true);
    const asMset = await snapshotDb(admin, 0);

    // The same file as a SET per row: the same DB.
    process.env['CACHEBOARD_MSET_PAIRS'] = '0';
    await admin.config('RESETSTAT');
    const perRow = await runJob(redis(), { path, format: 'csv', mode: 'swap', mapping, journalDir: dirs.journalDir() });
    expect(perRow.report).toMatchObject({ outcome: 'ok', commands: rows });
    expect((await calls())['mset']).toBeUndefined();
    expect(await snapshotDb(admin, 0)).toEqual(asMset);
  }, 60_000);

  it('keeps SET … EX for a mapping with a ttl', async () => {
    const { path, rows, expected } = writeRows('ttl.csv', 2_000);
    const { report } = await runJob(redis(), { path, format: 'csv', mode: 'swap', mapping: { ...mapping, ttl: 600 }, journalDir: dirs.journalDir() });
    expect(report).toMatchObject({ outcome: 'ok', records: rows, commands: rows });
    const stats = await calls();
    expect(stats['set']).toBe(rows + MARKER_SETS);
    expect(stats['mset']).toBeUndefined();
    await admin.select(0);
    expect(await admin.ttl([...expected.keys()][0] as string)).toBeGreaterThan(500);
  }, 60_000);

  it('names the rows of an MSET refused by the server, none of which is written', async () => {
    // Line n holds row n - 1 (line 1 is the header); the key of the row on line 152 is refused by ACL.
    const denied = 152;
    const lines = ['id,value'];
    for (let line = 2; line <= 201; line++) lines.push(`${line === denied ? 'x' : 'u'}:${line},v${line}`);
    const path = join(dirs.dir(), 'denied.csv');
    writeFileSync(path, `${lines.join('\n')}\n`);
    await admin.call('ACL', 'SETUSER', 'default', 'resetkeys', '~u:*');
    try {
      const { report } = await runJob(redis(), {
        path,
        format: 'csv',
        mode: 'merge',
        mapping: { key: '{id}', type: 'string', value: 'value' },
        maxErrors: 10,
        journalDir: dirs.journalDir(),
      });
      const first = 2 + Math.floor((denied - 2) / MSET_PAIRS) * MSET_PAIRS;
      const last = Math.min(201, first + MSET_PAIRS - 1);
      expect(report).toMatchObject({ outcome: 'ok', records: 200, errors: 1 });
      expect(report.firstErrors).toEqual([{ position: `denied.csv:${first}-${last}`, message: expect.stringMatching(/NOPERM/) as unknown }]);
      await admin.call('ACL', 'SETUSER', 'default', 'allkeys');
      await admin.select(0);
      // MSET is all or nothing: the span's rows are missing, every other row is there.
      expect(await admin.dbsize()).toBe(200 - (last - first + 1));
      expect(await admin.exists(`u:${first}`, `u:${last}`, `u:${first - 1}`, `u:${last + 1}`)).toBe(2);
    } finally {
      await admin.call('ACL', 'SETUSER', 'default', 'allkeys');
    }
  }, 60_000);
});
