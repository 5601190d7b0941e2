import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mapping } from '../types';
import { adminClient, useRedis } from '../../../../testing/redis';
import { runJob, snapshotDb, useLoadDirs, usersMapping, writeResp, writeUsersCsv } from './loadTestKit';

const redis = useRedis();

const { dir, journalDir } = useLoadDirs('cacheboard-replace-');
beforeEach(async () => {
  await (await adminClient(redis())).flushall();
});

/** The live DB: `count` keys in DB 0. */
async function fillLive(count: number): Promise<Map<string, string>> {
  const admin = await adminClient(redis());
  await admin.select(0);
  const m = admin.multi();
  for (let i = 0; i < count; i++) m.set(`live:${i}`, `v${i}`);
  await m.exec();
  return snapshotDb(admin, 0);
}

function file(name: string, text: string): string {
  mkdirSync(dir(), { recursive: true });
  const path = join(dir(), name);
  writeFileSync(path, text);
  return path;
}

const ndjsonMapping: Mapping = { key: 'user:{id}', type: 'string', value: 'value' };

/** Every format's way of holding nothing: the loads the issue saw wipe the live DB with "swapped: yes". */
const EMPTY_INPUTS: { name: string; text: string; format: 'csv' | 'ndjson' | 'resp' | 'commands'; mapping?: Mapping }[] = [
  { name: 'header-only.csv', text: 'id,value\n', format: 'csv', mapping: usersMapping },
  { name: 'empty.csv', text: '', format: 'csv', mapping: usersMapping },
  { name: 'empty.ndjson', text: '', format: 'ndjson', mapping: ndjsonMapping },
  { name: 'empty.resp', text: '', format: 'resp' },
  { name: 'empty.txt', text: '', format: 'commands' },
  { name: 'blank-lines.txt', text: '\n\n\n', format: 'commands' },
];

describe('swap refuses to replace a live DB with an empty one', () => {
  it.each(EMPTY_INPUTS)('$name: refused with both counts, the live DB intact, staging flushed', async ({ name, text, format, mapping }) => {
    const before = await fillLive(1_000);
    const path = file(name, text);
    const { report } = await runJob(redis(), { path, format, ...(mapping === undefined ? {} : { mapping }), mode: 'swap', journalDir: journalDir() });
    expect(report).toMatchObject({
      outcome: 'failed',
      swapped: false,
      keyCounts: { new: 0, live: 1_000 },
      liveCheck: { db: 0, keysBefore: 1_000, keysAfter: 1_000, sampled: 16, missing: 0, unchanged: true },
      error: { code: 'VALIDATION', field: 'allowEmpty' },
    });
    expect(report.error?.message).toMatch(
      /^Staging DB 15 holds 0 keys and the live DB 0 holds 1000 keys: the swap would empty DB 0\. Refused, nothing was replaced; pass --allow-empty .*DB 0 is untouched \(checked: 1000 keys before and after/,
    );
    const admin = await adminClient(redis());
    expect(await snapshotDb(admin, 0)).toEqual(before);
    await admin.select(15);
    expect(await admin.dbsize()).toBe(0);
  });

  it('--allow-empty lets an empty input replace the live DB', async () => {
    await fillLive(100);
    const { report } = await runJob(redis(), { path: file('allowed.resp', ''), format: 'resp', mode: 'swap', allowEmpty: true, journalDir: journalDir() });
    expect(report).toMatchObject({ outcome: 'ok', swapped: true, keyCounts: { new: 0, live: 100 } });
    const admin = await adminClient(redis());
    await admin.select(0);
    expect(await admin.dbsize()).toBe(0);
  });

  it('an empty input into an empty live DB needs no flag', async () => {
    const { report } = await runJob(redis(), { path: file('nothing.resp', ''), format: 'resp', mode: 'swap', journalDir: journalDir() });
    expect(report).toMatchObject({ outcome: 'ok', swapped: true, keyCounts: { new: 0, live: 0 } });
  });

  it('input whose commands leave no key (SET then DEL) is judged by the staging DB, not the file', async () => {
    const before = await fillLive(10);
    const path = writeResp(dir(), 'net-zero.resp', [
      ['SET', 'a', '1'],
      ['DEL', 'a'],
    ]);
    const { report } = await runJob(redis(), { path, format: 'resp', mode: 'swap', journalDir: journalDir() });
    expect(report).toMatchObject({ outcome: 'failed', keyCounts: { new: 0, live: 10 }, error: { field: 'allowEmpty' } });
    expect(await snapshotDb(await adminClient(redis()), 0)).toEqual(before);
  });
});

describe('swap refuses a drastically smaller DB (--max-shrink, default 50%)', () => {
  it('400 keys for 1000 is refused by default, naming the percentage and both counts', async () => {
    const before = await fillLive(1_000);
    const path = writeUsersCsv(dir(), 'users400.csv', 400);
    const { report } = await runJob(redis(), { path, format: 'csv', mapping: usersMapping, mode: 'swap', journalDir: journalDir() });
    expect(report).toMatchObject({
      outcome: 'failed',
      swapped: false,
      keyCounts: { new: 400, live: 1_000 },
      error: { code: 'VALIDATION', field: 'allowEmpty' },
    });
    expect(report.error?.message).toMatch(
      /^Staging DB 15 holds 400 keys and the live DB 0 holds 1000 keys: the swap would drop 60% of its keys, more than the 50% --max-shrink allows\. Refused, nothing was replaced; pass --max-shrink 60 or --allow-empty/,
    );
    expect(report.error?.message).toMatch(/DB 0 is untouched \(checked/);
    expect(await snapshotDb(await adminClient(redis()), 0)).toEqual(before);
  });

  it('500 keys for 1000 (exactly half) passes the default', async () => {
    await fillLive(1_000);
    const path = writeUsersCsv(dir(), 'users500.csv', 500);
    const { report } = await runJob(redis(), { path, format: 'csv', mapping: usersMapping, mode: 'swap', journalDir: journalDir() });
    expect(report).toMatchObject({ outcome: 'ok', swapped: true, keyCounts: { new: 500, live: 1_000 } });
  });

  it('--max-shrink 60 or --allow-empty lets 400 keys replace 1000', async () => {
    const path = writeUsersCsv(dir(), 'users400b.csv', 400);
    await fillLive(1_000);
    const raised = await runJob(redis(), { path, format: 'csv', mapping: usersMapping, mode: 'swap', maxShrink: 60, journalDir: journalDir() });
    expect(raised.report).toMatchObject({ outcome: 'ok', swapped: true, keyCounts: { new: 400, live: 1_000 } });
    await (await adminClient(redis())).flushall();
    await fillLive(1_000);
    const allowed = await runJob(redis(), { path, format: 'csv', mapping: usersMapping, mode: 'swap', allowEmpty: true, journalDir: journalDir() });
    expect(allowed.report).toMatchObject({ outcome: 'ok', swapped: true, keyCounts: { new: 400, live: 1_000 } });
    const admin = await adminClient(redis());
    await admin.select(0);
    expect(await admin.dbsize()).toBe(400);
  });
});

describe('flush refuses an empty input before its FLUSHDB', () => {
  it.each(EMPTY_INPUTS)('$name: refused, the target never flushed', async ({ name, text, format, mapping }) => {
    const before = await fillLive(300);
    const path = file(`flush-${name}`, text);
    const { report } = await runJob(redis(), { path, format, ...(mapping === undefined ? {} : { mapping }), mode: 'flush', journalDir: journalDir() });
    expect(report).toMatchObject({ outcome: 'failed', keyCounts: { new: 0, live: 300 }, error: { code: 'VALIDATION', field: 'allowEmpty' } });
    expect(report.error?.message).toMatch(
      /^The input has no commands, so the new DB holds 0 keys and the live DB 0 holds 300 keys: flush mode would empty DB 0\. .*DB 0 was not touched/,
    );
    expect(await snapshotDb(await adminClient(redis()), 0)).toEqual(before);
  });

  it('--allow-empty flushes as asked', async () => {
    await fillLive(300);
    const { report } = await runJob(redis(), {
      path: file('flush-allowed.resp', ''),
      format: 'resp',
      mode: 'flush',
      allowEmpty: true,
      journalDir: journalDir(),
    });
    expect(report).toMatchObject({ outcome: 'ok', keyCounts: { new: 0, live: 300 } });
    const admin = await adminClient(redis());
    await admin.select(0);
    expect(await admin.dbsize()).toBe(0);
  });

  it('a malformed first line is now caught before the FLUSHDB too', async () => {
    const before = await fillLive(50);
    const { report } = await runJob(redis(), {
      path: file('bad-first.txt', 'SET a "unterminated\n'),
      format: 'commands',
      mode: 'flush',
      journalDir: journalDir(),
    });
    expect(report).toMatchObject({ outcome: 'failed', error: { code: 'VALIDATION' } });
    expect(report.error?.message).toMatch(/bad-first\.txt:1.*DB 0 was not touched/);
    expect(await snapshotDb(await adminClient(redis()), 0)).toEqual(before);
  });

  it('merge of an empty input is harmless and goes through', async () => {
    const before = await fillLive(20);
    const { report } = await runJob(redis(), { path: file('merge-empty.resp', ''), format: 'resp', mode: 'merge', journalDir: journalDir() });
    expect(report.outcome).toBe('ok');
    expect(await snapshotDb(await adminClient(redis()), 0)).toEqual(before);
  });
});
