import { KeyType, TtlBucket, type SampleMethod, type SamplingReport } from '../../../app/schemas/sampling';
import { Pow2Histogram } from './histogram';
import { MemoryMoments, memoryInterval } from './memoryInterval';
import { PrefixTree } from './namespaces';
import { TopKeys } from './topKeys';
import { share } from './wilson';

export const KEY_TYPES = KeyType.options;
const OTHER = KEY_TYPES.indexOf('other');
const TYPE_INDEX = new Map<string, number>(KEY_TYPES.map((t, i) => [t, i]));

/** Index into KEY_TYPES of a TYPE reply; a module's type name (`ReJSON-RL`) is `other`. */
export function typeIndex(typeName: string): number {
  return TYPE_INDEX.get(typeName) ?? OTHER;
}

const TTL_BUCKETS = TtlBucket.options;

/** Index into TTL_BUCKETS of a PTTL reply (-1: no expiry). */
export function ttlBucket(pttl: number): number {
  if (pttl < 0) return 0;
  if (pttl < 60_000) return 1;
  if (pttl < 3_600_000) return 2;
  if (pttl < 86_400_000) return 3;
  return 4;
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

  add(key: Buffer, type: number, encoding: string, memory: number, pttl: number, length: number): void {
    this.examined++;
    this.memoryTotal += memory;
    bump(this.counts, type, 1);
    bump(this.memory, type, memory);
    (this.moments[type] as MemoryMoments).add(memory, key);
    this.total.add(memory, key);
    bump(this.ttl, ttlBucket(pttl), 1);
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
    return {
      method: meta.method,
      db: meta.db,
      dbsize: meta.dbsize,
      keysExamined: n,
      keysMissing: this.missing,
      seconds: meta.seconds,
      memoryTotal: this.memoryTotal,
      estimatedMemoryTotal: Math.round(this.memoryTotal * scale),
      memoryTotalInterval: memoryInterval(this.total, n, meta.dbsize, exact),
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
          memoryInterval: memoryInterval(this.moments[i] as MemoryMoments, n, meta.dbsize, exact),
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
      namespaces: namespaces.rows,
      warnings,
    };
  }
}
