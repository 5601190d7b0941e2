import type { RdbKeyRecord } from './rdbRecord';
import { TopKeys, type TopKey } from './topKeys';

/** The TTL histogram's buckets: the time a key had left when the snapshot was read, upper bounds in ms. */
export const TTL_BUCKETS = [
  { label: '< 1 min', below: 60_000 },
  { label: '< 1 h', below: 3_600_000 },
  { label: '< 1 day', below: 86_400_000 },
  { label: '< 7 days', below: 7 * 86_400_000 },
  { label: '< 30 days', below: 30 * 86_400_000 },
  { label: '30 days or more', below: Number.POSITIVE_INFINITY },
] as const;

export interface TypeTally {
  keys: number;
  /** Uncompressed payload bytes (RdbKeyRecord.valueBytes), not yet the memory model's estimate. */
  valueBytes: number;
  serializedBytes: number;
  /** Keys per encoding. */
  encodings: Record<string, number>;
}

export interface SnapshotTallyResult {
  keys: number;
  expires: number;
  dbs: Record<string, { keys: number; expires: number }>;
  types: Record<string, TypeTally>;
  ttl: {
    /** Keys with no TTL. */
    none: number;
    /** Keys whose TTL had passed when the snapshot is read but that the file still holds. */
    expired: number;
    buckets: { label: string; keys: number }[];
  };
  /** The biggest keys by payload bytes, largest first. */
  topByBytes: TopKey[];
  /** The keys with the most elements, largest first. */
  topByLength: TopKey[];
}

/**
 * Counts a snapshot's keys as the parser reports them: per DB, per type and encoding, a TTL
 * histogram against `now`, and the top keys by payload bytes and by element count. Memory is
 * bounded whatever the file's size: fixed counters, and `top` names per list, copied out of the
 * parser's reused buffer only when they get in.
 */
export class SnapshotTally {
  private keys = 0;
  private expires = 0;
  private readonly dbs = new Map<number, { keys: number; expires: number }>();
  private readonly types = new Map<string, TypeTally>();
  private none = 0;
  private expired = 0;
  private readonly buckets = TTL_BUCKETS.map(() => 0);
  private readonly byBytes: TopKeys;
  private readonly byLength: TopKeys;

  constructor(private readonly opts: { now: number; top?: number }) {
    this.byBytes = new TopKeys(opts.top ?? 100);
    this.byLength = new TopKeys(opts.top ?? 100);
  }

  /** The parser's `key` callback. */
  key(rec: RdbKeyRecord): void {
    this.keys++;
    let db = this.dbs.get(rec.db);
    if (db === undefined) {
      db = { keys: 0, expires: 0 };
      this.dbs.set(rec.db, db);
    }
    db.keys++;
    let t = this.types.get(rec.type);
    if (t === undefined) {
      t = { keys: 0, valueBytes: 0, serializedBytes: 0, encodings: {} };
      this.types.set(rec.type, t);
    }
    t.keys++;
    t.valueBytes += rec.valueBytes;
    t.serializedBytes += rec.serializedBytes;
    t.encodings[rec.encoding] = (t.encodings[rec.encoding] ?? 0) + 1;
    if (rec.expiresAt === null) this.none++;
    else {
      this.expires++;
      db.expires++;
      const left = rec.expiresAt - this.opts.now;
      if (left <= 0) this.expired++;
      else this.buckets[TTL_BUCKETS.findIndex((b) => left < b.below)]!++;
    }
    const entry = (size: number): TopKey => ({
      db: rec.db,
      key: Buffer.from(rec.key),
      type: rec.type,
      encoding: rec.encoding,
      size,
      length: rec.length,
      valueBytes: rec.valueBytes,
    });
    if (this.byBytes.wants(rec.valueBytes)) this.byBytes.add(entry(rec.valueBytes));
    if (this.byLength.wants(rec.length)) this.byLength.add(entry(rec.length));
  }

  result(): SnapshotTallyResult {
    return {
      keys: this.keys,
      expires: this.expires,
      dbs: Object.fromEntries([...this.dbs].sort((a, b) => a[0] - b[0]).map(([db, c]) => [String(db), { ...c }])),
      types: Object.fromEntries([...this.types].map(([type, t]) => [type, { ...t, encodings: { ...t.encodings } }])),
      ttl: { none: this.none, expired: this.expired, buckets: TTL_BUCKETS.map((b, i) => ({ label: b.label, keys: this.buckets[i] as number })) },
      topByBytes: this.byBytes.sorted(),
      topByLength: this.byLength.sorted(),
    };
  }
}
