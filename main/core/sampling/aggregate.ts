import { KeyType, TtlBucket, type SampleMethod, type SamplingReport } from '../../../app/schemas/sampling';
import { Pow2Histogram } from './histogram';
import { MemoryMoments, checkAgainstServer, memoryInterval, missedByTheSample } from './memoryInterval';
import { PrefixTree } from './namespaces';
import { TopKeys } from './topKeys';
import { estimateKeys, share } from './wilson';

export const KEY_TYPES = KeyType.options;
const OTHER = KEY_TYPES.indexOf('other');
const TYPE_INDEX = new Map<string, number>(KEY_TYPES.map((t, i) => [t, i]));

/** Index into KEY_TYPES of a TYPE reply; a module's type name (`ReJSON-RL`) is `other`. */
export function typeIndex(typeName: string): number {
  return TYPE_INDEX.get(typeName) ?? OTHER;
}

const TTL_BUCKETS = TtlBucket.options;
const TTL_INDEX = (b: (typeof TTL_BUCKETS)[number]) => TTL_BUCKETS.indexOf(b);
const [NONE, FIELDS, LT1M, LT1H, LT1D, LONGER] = (['none', 'fields', 'lt1m', 'lt1h', 'lt1d', 'longer'] as const).map(TTL_INDEX) as [
  number,
  number,
  number,
  number,
  number,
  number,
];

/**
 * Index into TTL_BUCKETS of a PTTL reply (-1: no key TTL). A key without a TTL whose
 * hash fields expire is `fields`: it is not a key that lives for ever.
 */
export function ttlBucket(pttl: number, fieldsExpire = false): number {
  if (pttl < 0) return fieldsExpire ? FIELDS : NONE;
  if (pttl < 60_000) return LT1M;
  if (pttl < 3_600_000) return LT1H;
  if (pttl < 86_400_000) return LT1D;
  return LONGER;
}

function bump(counters: Float64Array, i: number, by: number): void {
  counters[i] = (counters[i] as number) + by;
}

export interface ReportMeta {
  method: SampleMethod;
  db: number;
  dbsize: number;
  seconds: number;
  memorySamples: number;
  match?: string;
  /** Caveats from the run itself (duplicates skipped, keys that changed type…). */
  warnings: string[];
  /** What the server's INFO says; `dataset` checks a sample's memory figures. */
  server?: { dataset?: number; subexpiry?: number; expiredSubkeys?: number };
}

/**
 * Everything a report needs, in fixed-size counters per type: adding a key
 * allocates nothing but its encoding's map lookup and its namespace segments.
 */
export class Aggregate {
  examined = 0;
  missing = 0;
  memoryTotal = 0;
  private readonly counts = new Float64Array(KEY_TYPES.length);
  private readonly memory = new Float64Array(KEY_TYPES.length);
  /** Per type, and the total: what a memory figure's interval is built from. */
  private readonly moments = KEY_TYPES.map(() => new MemoryMoments());
  private readonly total = new MemoryMoments();
  private readonly ttl = new Float64Array(TTL_BUCKETS.length);
  /** Per type, keys by encoding name: no per-key string is built to look one up. */
  private readonly encodings = KEY_TYPES.map(() => new Map<string, number>());
  private readonly sizes = KEY_TYPES.map(() => new Pow2Histogram());
  private readonly lengths = KEY_TYPES.map(() => new Pow2Histogram());
  private readonly byMemory = new TopKeys('memory');
  /** Elements and bytes are two units: collections rank by elements, strings apart by bytes. */
  private readonly byLength = new TopKeys('length');
  private readonly stringsByLength = new TopKeys('length');
  private readonly prefixes = new PrefixTree();

  /** `fieldsExpire`: no key TTL, but hash fields that expire (hash-field expiry). */
  add(key: Buffer, type: number, encoding: string, memory: number, pttl: number, length: number, fieldsExpire = false): void {
    this.examined++;
    this.memoryTotal += memory;
    bump(this.counts, type, 1);
    bump(this.memory, type, memory);
    (this.moments[type] as MemoryMoments).add(memory, key);
    this.total.add(memory, key);
    bump(this.ttl, ttlBucket(pttl, fieldsExpire), 1);
    const byEncoding = this.encodings[type] as Map<string, number>;
    byEncoding.set(encoding, (byEncoding.get(encoding) ?? 0) + 1);
    (this.sizes[type] as Pow2Histogram).add(memory);
    (this.lengths[type] as Pow2Histogram).add(length);
    const typeName = KEY_TYPES[type] as KeyType;
    this.byMemory.offer(key, typeName, encoding, memory, length, pttl);
    (typeName === 'string' ? this.stringsByLength : this.byLength).offer(key, typeName, encoding, memory, length, pttl);
    this.prefixes.add(key, memory);
  }

  /** A key found (by SCAN or RANDOMKEY) that was gone when probed: expired or deleted. */
  addMissing(): void {
    this.missing++;
  }

  report(meta: ReportMeta): SamplingReport {
    const n = this.examined;
    const exact = meta.method === 'census';
    // A sample's figures scale to the whole DB; a census's are the DB.
    const scale = !exact && n > 0 ? meta.dbsize / n : 1;
    const present = KEY_TYPES.map((type, i) => ({ type, i })).filter(({ i }) => (this.counts[i] as number) > 0);
    present.sort((a, b) => (this.counts[b.i] as number) - (this.counts[a.i] as number));
    const namespaces = this.prefixes.rows(n);
    const warnings = [...meta.warnings];
    if (n === 0 && this.missing === 0) warnings.unshift(meta.match === undefined ? 'the DB is empty' : `no key matches "${meta.match}"`);
    if (this.missing > 0) {
      warnings.push(`${this.missing} keys were gone (expired or deleted) between being found and being probed; they are not counted`);
    }
    warnings.push(...namespaces.warnings);
    const drawn = memoryInterval(this.total, n, meta.dbsize, exact);
    const total = checkAgainstServer(drawn, exact ? undefined : meta.server?.dataset);
    // Memory the draws missed may be of any kind: no kind's interval holds then.
    const missed = total !== drawn;
    const kindInterval = (i: number) => {
      const interval = memoryInterval(this.moments[i] as MemoryMoments, n, meta.dbsize, exact);
      return missed ? missedByTheSample(interval) : interval;
    };
    return {
      method: meta.method,
      db: meta.db,
      dbsize: meta.dbsize,
      keysExamined: n,
      keysMissing: this.missing,
      seconds: meta.seconds,
      memoryTotal: this.memoryTotal,
      estimatedMemoryTotal: Math.round(this.memoryTotal * scale),
      memoryTotalInterval: total,
      memorySamples: meta.memorySamples,
      ...(meta.match === undefined ? {} : { match: meta.match }),
      types: present.map(({ type, i }) => {
        const count = this.counts[i] as number;
        const memory = this.memory[i] as number;
        return {
          type,
          ...share(count, n, exact),
          memory,
          estimatedCount: Math.round(count * scale),
          estimatedMemory: Math.round(memory * scale),
          memoryInterval: kindInterval(i),
        };
      }),
      encodings: this.encodings
        .flatMap((byEncoding, type) => [...byEncoding].map(([encoding, count]) => ({ type: KEY_TYPES[type] as KeyType, encoding, count })))
        .sort((a, b) => b.count - a.count)
        .map(({ type, encoding, count }) => ({ type, encoding, ...share(count, n, exact) })),
      sizeHistograms: present.map(({ type, i }) => ({ type, buckets: (this.sizes[i] as Pow2Histogram).buckets() })),
      lengthHistograms: present.map(({ type, i }) => ({ type, buckets: (this.lengths[i] as Pow2Histogram).buckets() })),
      ttl: TTL_BUCKETS.map((bucket, i) => ({ bucket, ...share(this.ttl[i] as number, n, exact) })),
      topByMemory: this.byMemory.rows(),
      topByLength: this.byLength.rows(),
      topStringsByLength: this.stringsByLength.rows(),
      // A row counts draws; the keys it stands for are estimated, with their interval.
      namespaces: namespaces.rows.map((row) => ({ ...row, ...estimateKeys(row.count, n, meta.dbsize, exact) })),
      warnings,
      ...(meta.server === undefined ? {} : { server: serverReport(meta.server) }),
    };
  }
}

function serverReport(s: NonNullable<ReportMeta['server']>): NonNullable<SamplingReport['server']> {
  return {
    ...(s.dataset === undefined ? {} : { datasetBytes: s.dataset }),
    ...(s.subexpiry === undefined ? {} : { subexpiry: s.subexpiry }),
    ...(s.expiredSubkeys === undefined ? {} : { expiredSubkeys: s.expiredSubkeys }),
  };
}
