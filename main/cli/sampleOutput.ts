import type { SamplingReport } from '../../app/schemas/sampling';

type ShareLike = { count: number; percent: number; ciLow: number; ciHigh: number };

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function shareJson(s: ShareLike) {
  return { count: s.count, percent: round(s.percent, 4), ci_low: round(s.ciLow, 4), ci_high: round(s.ciHigh, 4) };
}

type Interval = SamplingReport['memoryTotalInterval'];

/** A sampled memory figure's 95% interval: `{low, high}`, or `{not_estimable: reason}`. */
function intervalJson(i: Interval) {
  return 'notEstimable' in i ? { not_estimable: i.notEstimable } : { low: i.low, high: i.high };
}

/** "95%: 1.2 MB-1.5 MB" or "not estimable: why" (a census says nothing: it is exact). */
function intervalText(i: Interval): string {
  return 'notEstimable' in i ? `not estimable: ${i.notEstimable}` : `95%: ${bytes(i.low)}-${bytes(i.high)}`;
}

/** The JSON `--json` prints: a stable interface for scripts (snake_case, like `load --json`). */
export function sampleJson(r: SamplingReport) {
  const encodings: Record<string, Record<string, ReturnType<typeof shareJson>>> = {};
  for (const e of r.encodings) (encodings[e.type] ??= {})[e.encoding] = shareJson(e);
  const top = (rows: SamplingReport['topByMemory']) =>
    rows.map((k) => ({
      key: k.key.text,
      key_bytes: k.key.bytes,
      ...(k.key.truncated ? { key_truncated: true } : {}),
      type: k.type,
      encoding: k.encoding,
      memory: k.memory,
      length: k.length,
      ttl: k.ttl,
    }));
  return {
    method: r.method,
    db: r.db,
    dbsize: r.dbsize,
    keys_examined: r.keysExamined,
    keys_missing: r.keysMissing,
    seconds: round(r.seconds, 3),
    memory_samples: r.memorySamples,
    ...(r.match === undefined ? {} : { match: r.match }),
    memory_total: r.memoryTotal,
    estimated_memory_total: r.estimatedMemoryTotal,
    estimated_memory_total_interval: intervalJson(r.memoryTotalInterval),
    types: Object.fromEntries(
      r.types.map((t) => [
        t.type,
        {
          ...shareJson(t),
          memory: t.memory,
          estimated_count: t.estimatedCount,
          estimated_memory: t.estimatedMemory,
          estimated_memory_interval: intervalJson(t.memoryInterval),
        },
      ]),
    ),
    encodings,
    ttl: Object.fromEntries(r.ttl.map((t) => [t.bucket, shareJson(t)])),
    top_by_memory: top(r.topByMemory),
    top_by_length: top(r.topByLength),
    top_strings_by_length: top(r.topStringsByLength),
    // count: keys examined (a sample's draws); keys: the keys under the prefix (a sample's estimate, with its 95% interval).
    namespaces: r.namespaces.map((n) => ({
      prefix: n.prefix,
      parent: n.parent,
      depth: n.depth,
      count: n.count,
      memory: n.memory,
      percent: round(n.percent, 4),
      keys: n.keys,
      keys_low: n.keysLow,
      keys_high: n.keysHigh,
    })),
    warnings: r.warnings,
    ...(r.server === undefined
      ? {}
      : {
          server: {
            ...(r.server.datasetBytes === undefined ? {} : { dataset_bytes: r.server.datasetBytes }),
            ...(r.server.subexpiry === undefined ? {} : { subexpiry: r.server.subexpiry }),
            ...(r.server.expiredSubkeys === undefined ? {} : { expired_subkeys: r.server.expiredSubkeys }),
          },
        }),
    ...(r.masters === undefined
      ? {}
      : {
          masters: r.masters.map((m) => ({
            address: m.address,
            dbsize: m.dbsize,
            keys_examined: m.keysExamined,
            keys_missing: m.keysMissing,
            memory: m.memory,
            estimated_memory: m.estimatedMemory,
            estimated_memory_interval: intervalJson(m.memoryInterval),
          })),
        }),
  };
}

function bytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(2)} GiB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** `95.48%` for a census, `95.48% ±0.4` for a sample (the wider side of the Wilson interval). */
function pct(s: ShareLike, exact: boolean): string {
  const p = `${s.percent.toFixed(2)}%`;
  if (exact) return p;
  const half = Math.max(s.percent - s.ciLow, s.ciHigh - s.percent);
  return `${p} ±${half < 0.1 ? half.toFixed(2) : half.toFixed(1)}`;
}

const TTL_LABEL: Record<string, string> = {
  none: 'no expiry',
  fields: 'no key TTL, hash fields expire',
  lt1m: '< 1 min',
  lt1h: '< 1 hour',
  lt1d: '< 1 day',
  longer: '≥ 1 day',
};

/** redis-sampler-like text: `string: 95480 (95.48% ±0.4)` and friends. */
export function sampleText(r: SamplingReport): string {
  const exact = r.method === 'census';
  const what = exact
    ? `Census of db${r.db}${r.match === undefined ? '' : ` (MATCH ${r.match})`}: ${r.keysExamined} keys`
    : `Sample of db${r.db}: ${r.keysExamined} draws of ${r.dbsize} keys`;
  const memory = exact
    ? bytes(r.memoryTotal)
    : `${bytes(r.memoryTotal)} in the sample, ~${bytes(r.estimatedMemoryTotal)} estimated (${intervalText(r.memoryTotalInterval)})`;
  const lines = [`${what} in ${r.seconds.toFixed(2)} s; memory ${memory}`, '', 'TYPES'];
  for (const t of r.types) {
    const est = exact ? '' : `, ~${t.estimatedCount} keys, ~${bytes(t.estimatedMemory)} (${intervalText(t.memoryInterval)})`;
    lines.push(`  ${t.type}: ${t.count} (${pct(t, exact)})  ${bytes(t.memory)}${est}`);
  }
  lines.push('', 'ENCODINGS');
  for (const e of r.encodings) lines.push(`  ${e.type} ${e.encoding}: ${e.count} (${pct(e, exact)})`);
  lines.push('', 'TTL');
  for (const t of r.ttl) lines.push(`  ${TTL_LABEL[t.bucket] ?? t.bucket}: ${t.count} (${pct(t, exact)})`);
  lines.push('', exact ? 'BIGGEST KEYS BY MEMORY' : 'BIGGEST KEYS BY MEMORY (of the draws: a sample finds big keys only by chance; --full measures every key)');
  r.topByMemory.slice(0, 10).forEach((k, i) => {
    lines.push(
      `  ${i + 1}. "${k.key.text}"${k.key.truncated ? '…' : ''}  ${k.type} ${k.encoding}  ${bytes(k.memory)}  ${k.length} ${k.type === 'string' ? 'bytes' : 'elements'}`,
    );
  });
  lines.push('', 'TOP NAMESPACES');
  for (const n of r.namespaces.filter((x) => x.depth <= 2).slice(0, 15)) {
    const keys = exact
      ? `${n.keys} keys (${n.percent.toFixed(2)}%)`
      : `~${n.keys} keys (95%: ${n.keysLow}-${n.keysHigh}; ${n.count} draws, ${n.percent.toFixed(2)}%)`;
    lines.push(`  ${'  '.repeat(n.depth - 1)}${n.prefix}  ${keys}  ${bytes(n.memory)}`);
  }
  if (r.masters !== undefined) {
    lines.push('', 'PER MASTER');
    for (const m of r.masters) {
      const mem = exact ? bytes(m.memory) : `~${bytes(m.estimatedMemory)} (${intervalText(m.memoryInterval)})`;
      lines.push(`  ${m.address}: ${m.dbsize} keys, ${m.keysExamined} ${exact ? 'examined' : 'drawn'}, ${mem}`);
    }
  }
  if (r.server?.subexpiry !== undefined || r.server?.expiredSubkeys !== undefined) {
    lines.push('', 'HASH-FIELD EXPIRY (INFO)');
    if (r.server.subexpiry !== undefined) lines.push(`  hashes whose fields expire (subexpiry): ${r.server.subexpiry}`);
    if (r.server.expiredSubkeys !== undefined) lines.push(`  hash fields expired since start (expired_subkeys): ${r.server.expiredSubkeys}`);
  }
  if (r.warnings.length > 0) lines.push('', 'WARNINGS', ...r.warnings.map((w) => `  ${w}`));
  return `${lines.join('\n')}\n`;
}
