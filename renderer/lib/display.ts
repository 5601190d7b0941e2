import { formatBytes, formatCompact, formatDuration, truncate } from './format';

/**
 * Epoch milliseconds from a server time that may be in seconds: Redis itself
 * speaks seconds (SLOWLOG GET, LATENCY LATEST, rdb_last_save_time). Anything
 * below 1e11 is read as seconds (1e11 ms is 1973, 1e11 s is year 5138).
 */
export function toEpochMs(t: number): number {
  return t > 0 && t < 1e11 ? t * 1000 : t;
}

/** hh:mm:ss, 24 h, the way ops logs read. */
export function clock(t: number): string {
  const d = new Date(toEpochMs(t));
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** A time as HH:MM:SS.mmm (the viewer's time zone): MONITOR lines and Pub/Sub messages, compared to the millisecond. */
export function clockMs(ts: number): string {
  const ms = Math.floor(ts);
  return `${clock(ms)}.${String(((ms % 1000) + 1000) % 1000).padStart(3, '0')}`;
}

/** "3m 12s" from two epoch times (either may be in seconds), never negative. */
export function since(from: number, now: number): string {
  return formatDuration(Math.max(0, (toEpochMs(now) - toEpochMs(from)) / 1000));
}

/** Microseconds as a person reads them: "850 µs", "12.3 ms", "1.20 s". */
export function formatMicros(us: number): string {
  if (!Number.isFinite(us) || us < 0) return '—';
  if (us < 1000) return `${Math.round(us)} µs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
  return `${(us / 1_000_000).toFixed(2)} s`;
}

/** Seconds with one decimal below a minute ("4.1 s"), else the usual "2m 5s". */
export function formatSecondsShort(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '—';
  return s < 60 ? `${s.toFixed(1)} s` : formatDuration(s);
}

/** INFO's instantaneous_input_kbps is kilobytes per second, despite the name. */
export function formatKbps(kbps: number): string {
  return `${formatCompact(kbps)} KB/s`;
}

/** Lag as the graph labels it: "0 B · 0 s". */
export function formatLag(bytes: number, seconds: number): string {
  return `${formatBytes(bytes)} · ${Math.round(seconds)} s`;
}

/** A SLOWLOG entry's command line: each argument cut, the whole line cut again. */
export function commandLine(args: readonly string[], perArg = 48, total = 160): { short: string; full: string } {
  const quote = (a: string) => (a === '' || /[\s"]/.test(a) ? JSON.stringify(a) : a);
  const full = args.map(quote).join(' ');
  const short = truncate(args.map((a) => quote(truncate(a, perArg))).join(' '), total);
  return { short, full };
}

/** What an analyst's SLOWLOG line says in place of the values the server withheld. */
export function hiddenArgsNote(hidden: number | undefined): string | undefined {
  if (hidden === undefined || hidden === 0) return undefined;
  return `+${hidden} arg${hidden === 1 ? '' : 's'} hidden`;
}

/** Width of a bar, 0..100, for a value against a limit (no limit or nonsense: 0). */
export function percentOf(used: number, max: number): number {
  if (!(max > 0) || !Number.isFinite(used)) return 0;
  return Math.min(100, Math.max(0, (used / max) * 100));
}
