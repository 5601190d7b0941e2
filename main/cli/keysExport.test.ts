import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { adminClient, closeAdmins, useRedis } from '../../testing/redis';
import { expectSameKeys, seedEveryType } from '../core/bulk/exportLoadTestKit';

const source = useRedis();
const target = useRedis();
const dir = mkdtempSync(join(tmpdir(), 'keys-export-cli-'));
afterAll(async () => {
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});

describe('cacheboard keys export --format ndjson|csv, then cacheboard load', () => {
  for (const format of ['ndjson', 'csv'] as const) {
    it(`${format}: the bin writes the file whole and \`load\` puts every key back equal`, async () => {
      const src = await adminClient(source());
      await src.flushall();
      await seedEveryType(src, 'cli:');
      await src.set('other:key', 'not exported');
      const out = join(dir, `all.keys.${format}`);
      const exported = await runCli(['keys', 'export', '--url', source().url, '--match', 'cli:*', '--format', format, '--out', out, '--json']);
      expect(exported.err).toBe('');
      expect(exported.code).toBe(0);
      const summary = JSON.parse(exported.out) as { keys: number; bytes: number; vanished: number; unsupported: number };
      expect(summary).toMatchObject({ keys: 11, vanished: 0, unsupported: 0 });
      expect(summary.bytes).toBe(readFileSync(out).length);
      // Renamed over --out once whole: no temp file left beside it.
      expect(readdirSync(dir).filter((n) => n.endsWith('.part'))).toEqual([]);

      const dst = await adminClient(target());
      await dst.flushall();
      const loaded = await runCli(['load', out, '--url', target().url, '--mode', 'merge', '--json']);
      expect(loaded.code, loaded.err).toBe(0);
      const same = await expectSameKeys(src, dst, 'cli:*', 10_000);
      expect(same.problems).toEqual([]);
      expect(same.keys).toBe(11);
    });
  }

  it('a malformed line: load stops naming the line and the field', async () => {
    const bad = join(dir, 'bad.keys.ndjson');
    writeFileSync(bad, '{"key":"a","type":"string","ttl_ms":null,"value":"1"}\n{"key":"b","type":"list","ttl_ms":null,"value":"x"}\n');
    const run = await runCli(['load', bad, '--url', target().url, '--mode', 'merge']);
    expect(run.code).toBe(1);
    expect(run.err).toContain('bad.keys.ndjson:2: value: a list value must be an array of strings');
    expect(existsSync(bad)).toBe(true);
  });
});
