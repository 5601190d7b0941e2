/**
 * Display formatting for numbers coming from Redis. Pure and locale-pinned
 * (en-US grouping) so screenshots and tests read the same everywhere.
 */

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** 1536 -> "1.5 KiB". Binary units, as Redis's own `used_memory_human` counts. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—';
  const sign = bytes < 0 ? '-' : '';
  let v = Math.abs(bytes);
  let unit = 0;
  while (v >= 1024 && unit < BYTE_UNITS.length - 1) {
    v /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : v < 10 ? 2 : v < 100 ? 1 : 0;
  return `${sign}${v.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/** Redis reports `maxmemory:0` when there is no limit. */
export function formatMaxMemory(bytes: number): string {
  return bytes <= 0 ? 'no limit' : formatBytes(bytes);
}

/** Seconds -> "45s", "12m 5s", "3h 4m", "5d 3h": the two largest units, like `uptime`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.floor(seconds);
  if (s < 60) return `${s}s`;
  const units: [string, number][] = [
    ['d', Math.floor(s / 86_400)],
    ['h', Math.floor((s % 86_400) / 3600)],
    ['m', Math.floor((s % 3600) / 60)],
    ['s', s % 60],
  ];
  const first = units.findIndex(([, n]) => n > 0);
  return units
    .slice(first, first + 2)
    .filter(([, n], i) => i === 0 || n > 0)
    .map(([u, n]) => `${n}${u}`)
    .join(' ');
}

/** 1234567 -> "1,234,567". */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? grouped.format(n) : '—';
}

/** 0.9321 -> "93.2 %"; undefined (nothing to divide) -> "—". */
export function formatPercent(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return '—';
  return `${(ratio * 100).toFixed(1)} %`;
}

/** Round-trip time: "0.42 ms", "12.3 ms", "140 ms". */
export function formatLatency(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const digits = ms < 1 ? 2 : ms < 100 ? 1 : 0;
  return `${ms.toFixed(digits)} ms`;
}

/** keyspace_hits / (hits + misses); undefined before the first lookup. */
export function hitRatio(hits: number, misses: number): number | undefined {
  const total = hits + misses;
  return total > 0 ? hits / total : undefined;
}

/** INFO keyspace `avg_ttl` is in milliseconds, 0 when no key has a TTL. */
export function formatAvgTtl(ms: number): string {
  return ms > 0 ? formatDuration(ms / 1000) : '—';
}
