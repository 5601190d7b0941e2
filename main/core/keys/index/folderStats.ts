import type { KeyType } from '../../../../app/schemas/sampling';
import { prefixGlob } from '../../redis/glob';
import type { KeysReader } from './indexTargets';
import type { KeyIndex } from './keyIndex';
import { probeKeys } from './probeKeys';
import { scanPage } from './scanPage';

export interface FolderStats {
  sampled: number;
  count: number;
  types: { type: KeyType; count: number }[];
  memory: { estimate: number; ciLow: number; ciHigh: number };
}

/**
 * A folder's type mix and memory from a sample of its keys: drawn at random from the name
 * index, else the first `samples` a paced SCAN MATCH finds (not random: SCAN walks the hash
 * table in bucket order, which is close to random in the key's hash). Each gets TYPE and
 * MEMORY USAGE … SAMPLES 5, pipelined. Memory = mean × count, with a 95% interval on the mean
 * (Student's t for small samples), narrowed by the finite-population correction: a sample of
 * the whole folder is exact.
 */
export async function folderStats(index: KeyIndex | null, prefix: Buffer, samples: number, reader: KeysReader): Promise<FolderStats> {
  const folder = index?.folder(prefix);
  const store = index?.store ?? null;
  let keys: Buffer[];
  let count: number | null = folder?.count ?? null;
  if (index !== null && folder !== undefined && store !== null && index.state.complete) {
    keys = reservoir([...index.idsUnder(folder)], samples).map((id) => Buffer.from(store.name(id)));
  } else {
    keys = [];
    let cursor: string | undefined;
    let exhausted: boolean;
    do {
      const page = await scanPage(reader, prefixGlob(prefix), cursor, samples - keys.length);
      keys.push(...page.keys);
      cursor = page.cursor ?? undefined;
      exhausted = page.cursor === null;
    } while (cursor !== undefined && keys.length < samples);
    keys = keys.slice(0, samples);
    // No complete index: the count is the sample itself when SCAN ran out, else the index's figure so far.
    if (exhausted && (count === null || count < keys.length)) count = keys.length;
  }
  const probed = (await probeKeys(reader, keys, { ttl: false, memory: true })).filter((p) => p.type !== null);
  const n = probed.length;
  const total = count ?? n;
  const byType = new Map<KeyType, number>();
  for (const p of probed) byType.set(p.type as KeyType, (byType.get(p.type as KeyType) ?? 0) + 1);
  const mem = probed.map((p) => p.memory ?? 0);
  return {
    sampled: n,
    count: total,
    types: [...byType].map(([type, c]) => ({ type, count: c })).sort((a, b) => b.count - a.count),
    memory: estimate(mem, total),
  };
}

/** Mean × population, with the 95% interval of that total. */
export function estimate(xs: readonly number[], population: number): { estimate: number; ciLow: number; ciHigh: number } {
  const n = xs.length;
  if (n === 0) return { estimate: 0, ciLow: 0, ciHigh: 0 };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const est = mean * population;
  if (n < 2 || n >= population) return { estimate: est, ciLow: est, ciHigh: est };
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  const fpc = Math.sqrt(Math.max(0, (population - n) / (population - 1)));
  const half = tCritical(n - 1) * Math.sqrt(variance / n) * fpc * population;
  return { estimate: est, ciLow: Math.max(0, est - half), ciHigh: est + half };
}

/** Two-sided 95% critical value of Student's t with `df` degrees of freedom (1.96 past 120). */
function tCritical(df: number): number {
  const table: [number, number][] = [
    [1, 12.706],
    [2, 4.303],
    [3, 3.182],
    [4, 2.776],
    [5, 2.571],
    [6, 2.447],
    [7, 2.365],
    [8, 2.306],
    [9, 2.262],
    [10, 2.228],
    [12, 2.179],
    [15, 2.131],
    [20, 2.086],
    [25, 2.06],
    [30, 2.042],
    [40, 2.021],
    [60, 2.0],
    [120, 1.98],
  ];
  for (const [d, t] of table) if (df <= d) return t;
  return 1.96;
}

/** Up to `k` of `ids`, uniformly at random. */
function reservoir(ids: number[], k: number): number[] {
  if (ids.length <= k) return ids;
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(Math.random() * (ids.length - i));
    [ids[i], ids[j]] = [ids[j] as number, ids[i] as number];
  }
  return ids.slice(0, k);
}
