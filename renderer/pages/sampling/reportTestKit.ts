import type { SamplingReport } from '../../../app/schemas/sampling';

/** A small census report for tests: 3 strings, 1 hash, prefixes user: and user:session:. */
export function testReport(patch: Partial<SamplingReport> = {}): SamplingReport {
  return {
    method: 'census',
    db: 0,
    dbsize: 4,
    keysExamined: 4,
    keysMissing: 0,
    seconds: 0.12,
    memoryTotal: 400,
    estimatedMemoryTotal: 400,
    memoryTotalInterval: { low: 400, high: 400 },
    memorySamples: 5,
    types: [
      {
        type: 'string',
        count: 3,
        percent: 75,
        ciLow: 75,
        ciHigh: 75,
        memory: 200,
        estimatedCount: 3,
        estimatedMemory: 200,
        memoryInterval: { low: 200, high: 200 },
      },
      {
        type: 'hash',
        count: 1,
        percent: 25,
        ciLow: 25,
        ciHigh: 25,
        memory: 200,
        estimatedCount: 1,
        estimatedMemory: 200,
        memoryInterval: { low: 200, high: 200 },
      },
    ],
    encodings: [
      { type: 'string', encoding: 'embstr', count: 3, percent: 75, ciLow: 75, ciHigh: 75 },
      { type: 'hash', encoding: 'listpack', count: 1, percent: 25, ciLow: 25, ciHigh: 25 },
    ],
    sizeHistograms: [
      { type: 'string', buckets: [{ le: 64, count: 3 }] },
      { type: 'hash', buckets: [{ le: 256, count: 1 }] },
    ],
    lengthHistograms: [
      {
        type: 'string',
        buckets: [
          { le: 0, count: 1 },
          { le: 8, count: 2 },
        ],
      },
      { type: 'hash', buckets: [{ le: 4, count: 1 }] },
    ],
    ttl: [
      { bucket: 'none', count: 3, percent: 75, ciLow: 75, ciHigh: 75 },
      { bucket: 'lt1h', count: 1, percent: 25, ciLow: 25, ciHigh: 25 },
    ],
    topByMemory: [
      {
        key: { text: '=HYPERLINK("http://x")', bytes: 22, truncated: false },
        type: 'hash',
        encoding: 'listpack',
        memory: 200,
        length: 3,
        ttl: -1,
      },
      { key: { text: 'user:1', bytes: 6, truncated: false }, type: 'string', encoding: 'embstr', memory: 60, length: 5, ttl: 90 },
    ],
    topByLength: [],
    topStringsByLength: [],
    namespaces: [
      { prefix: 'user:', parent: '', depth: 1, count: 3, memory: 200, percent: 75, keys: 3, keysLow: 3, keysHigh: 3 },
      { prefix: 'user:session:', parent: 'user:', depth: 2, count: 1, memory: 50, percent: 25, keys: 1, keysLow: 1, keysHigh: 1 },
    ],
    warnings: [],
    ...patch,
  };
}
