import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArgs } from '../../testing/cli';
import { adminClient } from '../../testing/redis';
import { useLiveServer } from './liveServerTestKit';

const { redis, dir } = useLiveServer('cb-cli-inputs-');

/** `cacheboard load FILE …` in swap mode into db 0, with 2,000 good records before the bad one. */
function load(name: string, body: Buffer, args: string[]) {
  const file = join(dir, name);
  writeFileSync(file, body);
  const r = spawnSync(process.execPath, cliArgs('load', file, '--url', `${redis().url}/0`, ...args), {
    encoding: 'utf8',
    env: { ...process.env, CACHEBOARD_DATA_DIR: join(dir, 'data') },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const good = (n: number) => Array.from({ length: n }, (_, i) => `{"id":${i},"v":"value-${i}"}\n`).join('');

/** The live DB as it was, the staging DB flushed, save put back: the load changed nothing. */
async function untouched(): Promise<void> {
  const admin = await adminClient(redis());
  expect(await admin.dbsize()).toBe(1);
  expect(await admin.get('live')).toBe('before');
  expect(((await admin.config('GET', 'save')) as string[])[1]).toBe('900 1');
  const staging = await adminClient(redis(), { db: 15 });
  expect(await staging.dbsize()).toBe(0);
}

describe('cacheboard load refuses input it would change silently', () => {
  it('NDJSON with a byte that is not UTF-8 in a value: file:line:column, nothing loaded', async () => {
    const body = Buffer.concat([Buffer.from(`${good(2_000)}{"id":"x","v":"caf`), Buffer.from([0xe9]), Buffer.from('"}\n')]);
    const r = load('latin1.ndjson', body, ['--key', 'k:{id}', '--value', 'v', '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as { outcome: string; swapped: boolean; error: { message: string } };
    expect(report).toMatchObject({ outcome: 'failed', swapped: false });
    expect(report.error.message).toContain("latin1.ndjson:2001:19: byte '\\xe9' is not valid UTF-8");
    await untouched();
  });

  it('NDJSON whose object repeats the value field: refused at the second one', async () => {
    const r = load('twice.ndjson', Buffer.from(`${good(2_000)}{"id":"x","v":"a","v":"b"}\n`), ['--key', 'k:{id}', '--value', 'v']);
    expect(r.code).toBe(1);
    expect(r.out).toContain("twice.ndjson:2001:19: key 'v' appears twice in the object (first at column 11)");
    await untouched();
  });

  it('CSV whose header repeats a column a hash would take twice: refused naming both columns', async () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => `${i},n${i},c${i},m${i}`).join('\n');
    const r = load('dup.csv', Buffer.from(`id,name,city,name\n${rows}\n`), ['--key', 'u:{id}', '--type', 'hash']);
    expect(r.code).toBe(1);
    expect(r.out).toContain("dup.csv:1: a hash taking every column would write field 'name' from columns 2 and 4 and keep only the last");
    await untouched();
  });
});
