import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportEvent, ExportFormat } from '../../../app/schemas/export';
import { specFor } from '../../../testing/profiles';
import { adminClient, useRedis } from '../../../testing/redis';
import { runJob, useLoadDirs } from './job/loadTestKit';
import type { InputFormat } from './types';
import { expectSameKeys, seedEveryType } from './exportLoadTestKit';
import { runExport } from '../export';

const source = useRedis();
const target = useRedis();
const dirs = useLoadDirs('export-roundtrip-');

/** Exports every `rt:` key of the source to a file; the events and the file's path. */
async function exportToFile(format: ExportFormat, name: string): Promise<{ path: string; events: ExportEvent[]; bytes: Buffer }> {
  const redis = await adminClient(source());
  const chunks: Buffer[] = [];
  const events: ExportEvent[] = [];
  const out = await runExport(
    { redis, source: { kind: 'prefix', prefix: Buffer.from('rt:').toString('base64') }, format, ttls: true, sink: { write: async (c) => void chunks.push(c) } },
    (e) => events.push(e),
    new AbortController().signal,
  );
  events.push(out);
  const bytes = Buffer.concat(chunks);
  const path = join(dirs.dir(), name);
  writeFileSync(path, bytes);
  return { path, events, bytes };
}

describe('export → load round trip', () => {
  const cases: Array<[ExportFormat, InputFormat, string]> = [
    ['ndjson', 'keys-ndjson', 'x.keys.ndjson'],
    ['csv', 'keys-csv', 'x.keys.csv'],
    ['restore', 'resp', 'x.resp'],
  ];
  for (const [format, loadAs, name] of cases) {
    it(`${format}: every type, binary names and values, big values and TTLs load back equal`, async () => {
      const src = await adminClient(source());
      await src.flushall();
      await seedEveryType(src, 'rt:');
      const { path, events } = await exportToFile(format, name);
      const last = events.at(-1);
      expect(last?.kind).toBe('done');
      const counts = last?.kind === 'done' ? last.counts : undefined;
      expect(counts?.keys).toBe(await src.dbsize());
      expect(counts?.vanished).toBe(0);

      const dst = await adminClient(target());
      await dst.flushall();
      const { report } = await runJob(target(), { path, format: loadAs, mode: 'merge', journalDir: dirs.journalDir(), spec: specFor(target()) });
      expect(report.errors, JSON.stringify(report.firstErrors)).toBe(0);
      const same = await expectSameKeys(src, dst, 'rt:*', 5_000);
      expect(same.problems).toEqual([]);
      expect(same.keys).toBe(11);
    });
  }

  it('ndjson is readable: one JSON object per line, binary as base64, a big value in parts', async () => {
    const src = await adminClient(source());
    await src.flushall();
    await seedEveryType(src, 'rt:');
    const { bytes } = await exportToFile('ndjson', 'read.keys.ndjson');
    const lines = bytes
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const str = lines.find((l) => l.key === 'rt:str');
    expect(str).toMatchObject({ type: 'string', value: 'plain, "quoted"\nline two' });
    expect(str?.ttl_ms).toBeGreaterThan(590_000);
    const bin = lines.find((l) => l.key_b64 === Buffer.concat([Buffer.from('rt:'), Buffer.from([0xff, 0x00, 0x0a])]).toString('base64'));
    expect(bin).toMatchObject({ type: 'string', ttl_ms: null, value_b64: Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff]).toString('base64') });
    expect(lines.filter((l) => l.key === 'rt:big').map((l) => l.part ?? 0)).toEqual([0, 1, 2]);
    expect(lines.find((l) => l.key === 'rt:zset')).toMatchObject({
      value: [
        ['low', '-inf'],
        ['zero', 0],
        ['tiny', 1e-300],
        ['one and a half', 1.5],
        ['high', 'inf'],
      ],
    });
    const stream = lines.filter((l) => l.key === 'rt:stream').flatMap((l) => l.value as unknown[]);
    expect(stream[0]).toEqual(['1000-0', { n: '0', text: 'entry 0' }]);
    expect(stream).toHaveLength(600);
  });
});
