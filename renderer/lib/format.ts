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

/** 0.4237 -> "42.3 %": progress, floored, so it never shows 100 % before the end. */
export function formatFraction(f: number | undefined): string {
  if (f === undefined || !Number.isFinite(f)) return '—';
  const tenths = Math.floor(f * 1000) / 10;
  return `${tenths.toFixed(1)} %`;
}

/** "—" unknown, "<1s" nearly there, else "3m 12s". */
export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 1) return '<1s';
  return formatDuration(seconds);
}

/** A run's time: "0.42 s" for the quick ones, then like uptime. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 10) return `${seconds.toFixed(2)} s`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return formatDuration(seconds);
}

/** 1234 -> "1.2k", 5_600_000 -> "5.6M": chart axes have no room for grouping. */
export function formatCompact(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n * 10) / 10);
  if (a < 1e6) return `${(n / 1e3).toFixed(a < 1e4 ? 1 : 0)}k`;
  if (a < 1e9) return `${(n / 1e6).toFixed(a < 1e7 ? 1 : 0)}M`;
  return `${(n / 1e9).toFixed(1)}G`;
}

/**
 * Untrusted text cut to `max` characters with an ellipsis; the caller puts the
 * full text in a title. Rendered as React text, so no escaping is needed here.
 */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}
