import type { SamplingReport } from '../../../app/schemas/sampling';
import { toCsv, type CsvValue } from '../../lib/csv';

type Row = CsvValue[];

/** What the CSV button's tooltip says about the file's shape. */
export const CSV_LAYOUT =
  'One CSV file in sections: summary, types, encodings, ttl, size_histogram, length_histogram, top_by_memory, top_by_length (elements), top_strings_by_length (bytes), namespaces. ' +
  'Each section is a line with its name, a header line, its rows and an empty line. Percentages are 0–100; memory is in bytes; ' +
  'a sampled memory figure has its 95% interval (low, high) or, in memory_not_estimable, why it has none.';

function section(name: string, header: string[], rows: Row[]): Row[] {
  return [[name], header, ...rows, []];
}

type TopKey = SamplingReport['topByMemory'][number];
const TOP_HEADER = ['rank', 'key', 'key_bytes', 'key_truncated', 'type', 'encoding', 'memory_bytes', 'length', 'ttl_seconds'];
const topRows = (keys: TopKey[]): Row[] => keys.map((k, i) => [i + 1, k.key.text, k.key.bytes, k.key.truncated, k.type, k.encoding, k.memory, k.length, k.ttl]);

type Interval = SamplingReport['memoryTotalInterval'];
/** low, high, not-estimable reason: two bounds, or blanks and the reason. */
const intervalCells = (i: Interval): Row => ('notEstimable' in i ? ['', '', i.notEstimable] : [i.low, i.high, '']);
const INTERVAL_HEADER = ['memory_low_bytes', 'memory_high_bytes', 'memory_not_estimable'];

type Histogram = SamplingReport['sizeHistograms'][number];
const histogramRows = (hs: Histogram[]): Row[] => hs.flatMap((h) => h.buckets.map((b): Row => [h.type, b.le, b.count]));

/**
 * The whole report as one CSV file with sections (see CSV_LAYOUT). Key names and
 * prefixes are the server's escaped text (`\xff`, `\n`), so every row stays one line.
 */
export function reportCsv(r: SamplingReport, profileName: string): string {
  const summary: Row[] = [
    ['profile', profileName],
    ['method', r.method],
    ['db', r.db],
    ['match', r.match ?? ''],
    ['dbsize', r.dbsize],
    ['keys_examined', r.keysExamined],
    ['keys_missing', r.keysMissing],
    ['seconds', r.seconds],
    ['memory_examined_bytes', r.memoryTotal],
    ['estimated_memory_bytes', r.estimatedMemoryTotal],
    ...INTERVAL_HEADER.map((name, i): Row => [name, intervalCells(r.memoryTotalInterval)[i] ?? '']),
    ['memory_usage_samples', r.memorySamples],
    ...r.warnings.map((w): Row => ['warning', w]),
  ];
  const share = ['count', 'percent', 'ci_low', 'ci_high'];
  return toCsv([
    ...section('summary', ['name', 'value'], summary),
    ...section(
      'types',
      ['type', ...share, 'memory_bytes', 'estimated_count', 'estimated_memory_bytes', ...INTERVAL_HEADER],
      r.types.map((t) => [t.type, t.count, t.percent, t.ciLow, t.ciHigh, t.memory, t.estimatedCount, t.estimatedMemory, ...intervalCells(t.memoryInterval)]),
    ),
    ...section(
      'encodings',
      ['type', 'encoding', ...share],
      r.encodings.map((e) => [e.type, e.encoding, e.count, e.percent, e.ciLow, e.ciHigh]),
    ),
    ...section(
      'ttl',
      ['bucket', ...share],
      r.ttl.map((t) => [t.bucket, t.count, t.percent, t.ciLow, t.ciHigh]),
    ),
    ...section('size_histogram', ['type', 'le_bytes', 'count'], histogramRows(r.sizeHistograms)),
    ...section('length_histogram', ['type', 'le', 'count'], histogramRows(r.lengthHistograms)),
    ...section('top_by_memory', TOP_HEADER, topRows(r.topByMemory)),
    ...section('top_by_length', TOP_HEADER, topRows(r.topByLength)),
    ...section('top_strings_by_length', TOP_HEADER, topRows(r.topStringsByLength)),
    ...section(
      'namespaces',
      // count: keys examined (a sample's draws); keys: under the prefix (a sample's estimate and its 95% interval).
      ['prefix', 'parent', 'depth', 'count', 'memory_bytes', 'percent', 'keys', 'keys_low', 'keys_high'],
      r.namespaces.map((n) => [n.prefix, n.parent, n.depth, n.count, n.memory, n.percent, n.keys, n.keysLow, n.keysHigh]),
    ),
  ]);
}

/** `sampling-prod-db0-census-2024-05-01T12-30-00.csv`: sortable, and safe on every file system. */
export function exportName(r: Pick<SamplingReport, 'db' | 'method'>, profileName: string, ext: 'csv' | 'json', at: Date): string {
  const profile = profileName.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'profile';
  const stamp = at.toISOString().slice(0, 19).replace(/:/g, '-');
  return `sampling-${profile}-db${r.db}-${r.method}-${stamp}.${ext}`;
}
