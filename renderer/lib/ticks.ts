/**
 * Axis ticks for every chart, chosen here rather than by Recharts: its own pick
 * divides the domain by a tick count, so a memory axis reads "23.8 / 47.7 / 83.4 MiB"
 * and a short duration axis "0.1s 0.1s 0.2s" (0.05 and 0.1 both round to 0.1).
 * Steps are 1, 2 or 5 times a power of ten in the unit the labels show (MiB, ms,
 * thousands), and each label carries as many decimals as the step needs, so no two
 * labels of an axis read alike. Given ticks with `interval={0}` also spare Recharts
 * measuring label text in the DOM on every redraw.
 */

/** What the axis counts: the unit decides the step ladder and how labels read. */
export type TickUnit = 'count' | 'bytes' | 'seconds' | 'ms' | 'percent';

/** The ticks from 0 to the top (the domain's end) and how to label them. */
export interface Axis {
  ticks: number[];
  format(v: number): string;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;
const COUNT_SCALES: readonly [number, string][] = [
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];
/** Whole-second steps for durations: past 10 s a clock's steps read better than 20 s or 50 s. */
const SECOND_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400];

/** The smallest of 1, 2, 5 × 10^n at or above `raw` (raw > 0). */
export function niceStep(raw: number): number {
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = [1, 2, 5, 10].find((x) => x * pow >= raw * (1 - 1e-9)) ?? 10;
  return m * pow;
}

/** Decimals a multiple of `step` needs to be written exactly (0.25 -> 2, 5 -> 0). */
function decimalsOf(step: number): number {
  for (let d = 0; d < 6; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-6) return d;
  return 6;
}

/** `v` to the step's decimals, trailing zeros dropped: "1.5", "2", never "2.0". */
function fixed(v: number, step: number): string {
  const s = v.toFixed(decimalsOf(step));
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

function ladder(top: number, step: number): number[] {
  const n = Math.max(1, Math.ceil(top / step - 1e-9));
  return Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** 0 to at least `max` in about `count` steps of 1, 2 or 5 × 10^n of the unit `base`; `minStep` floors the step (whole counts). */
function linear(max: number, count: number, base: number, minStep = 0): { ticks: number[]; step: number } {
  const step = Math.max(minStep, niceStep(max / base / count)) * base;
  return { ticks: ladder(max, step), step };
}

function countAxis(max: number, count: number, suffix: string, whole: boolean): Axis {
  const { ticks, step } = linear(max, count, 1, whole ? 1 : 0);
  const top = ticks.at(-1) ?? 0;
  const [scale, letter] = COUNT_SCALES.find(([s]) => top >= s) ?? [1, ''];
  return { ticks, format: (v) => (v === 0 ? '0' : `${fixed(v / scale, step / scale)}${letter}${suffix}`) };
}

function bytesAxis(max: number, count: number): Axis {
  let unit = 0;
  while (max >= 1024 ** (unit + 1) && unit < BYTE_UNITS.length - 1) unit += 1;
  const base = 1024 ** unit;
  // Whole bytes at the bottom of the ladder: "0.5 B" is nobody's figure.
  const { ticks, step } = linear(max, count, base, unit === 0 ? 1 : 0);
  return { ticks, format: (v) => (v === 0 ? '0' : `${fixed(v / base, step / base)} ${BYTE_UNITS[unit]}`) };
}

function secondsAxis(max: number, count: number): Axis {
  const raw = max / count;
  if (raw < 1) {
    const { ticks, step } = linear(max, count, 1);
    // Below a second in all: milliseconds ("200 ms"); otherwise seconds with the step's decimals ("1.5 s").
    const top = ticks.at(-1) ?? 0;
    return top < 1
      ? { ticks, format: (v) => (v === 0 ? '0' : `${fixed(v * 1000, step * 1000)} ms`) }
      : { ticks, format: (v) => (v === 0 ? '0' : `${fixed(v, step)} s`) };
  }
  const step = SECOND_STEPS.find((s) => s >= raw * (1 - 1e-9)) ?? niceStep(raw / 86_400) * 86_400;
  return { ticks: ladder(max, step), format: (v) => (v === 0 ? '0' : clockSpan(v)) };
}

/** 45 -> "45 s", 90 -> "1m 30s", 3600 -> "1h": the two largest units. */
function clockSpan(s: number): string {
  if (s < 60) return `${s} s`;
  const parts: [number, string][] = [
    [Math.floor(s / 86_400), 'd'],
    [Math.floor((s % 86_400) / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'm'],
    [Math.round(s % 60), 's'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  return parts
    .slice(first, first + 2)
    .filter(([n], i) => i === 0 || n > 0)
    .map(([n, u]) => `${n}${u}`)
    .join(' ');
}

/**
 * An axis from 0 to at least `max` in about `count` steps. An empty or all-zero
 * series still gets a readable axis: one step of the unit (1, 1 KiB, 1 s).
 */
export function niceAxis(max: number, unit: TickUnit = 'count', count = 4): Axis {
  // Nothing above zero: a single step of the unit, so the flat line sits on a plain axis.
  const empty = !(Number.isFinite(max) && max > 0);
  const n = empty ? 1 : count;
  switch (unit) {
    case 'bytes':
      return bytesAxis(empty ? 1024 : max, n);
    case 'seconds':
      return secondsAxis(empty ? 1 : max, n);
    case 'ms':
      return countAxis(empty ? 1 : max, n, ' ms', false);
    case 'percent':
      return countAxis(empty ? 10 : Math.min(100, max), n, ' %', false);
    case 'count':
      return countAxis(empty ? 1 : max, n, '', true);
  }
}

/** A log axis' label (its ticks are powers of ten): "0.01", "1", "10k", "1M", never "1.0k". */
export function formatLogTick(v: number): string {
  if (!(v > 0)) return '0';
  const [scale, letter] = COUNT_SCALES.find(([s]) => v >= s) ?? [1, ''];
  return `${Number((v / scale).toPrecision(6))}${letter}`;
}

/**
 * Ticks of a time axis from `from` to `to` (epoch ms) on whole steps of the clock
 * (1, 2, 5, 10, 15, 30 s, 1, 2, 5 min…), about `count` of them.
 */
export function timeTicks(from: number, to: number, count = 6): number[] {
  if (!(to > from)) return [from];
  const spanS = (to - from) / 1000;
  const stepMs = (SECOND_STEPS.find((s) => spanS / s <= count) ?? 86_400) * 1000;
  const out: number[] = [];
  for (let t = Math.ceil(from / stepMs) * stepMs; t <= to; t += stepMs) out.push(t);
  return out;
}

/** The largest number in any of `keys` of `rows` (chart rows: a column per series), 0 for none. */
export function maxOf<T extends object>(rows: readonly T[], keys: readonly (keyof T & string)[]): number {
  let max = 0;
  for (const r of rows) {
    for (const k of keys) {
      const v: unknown = r[k];
      if (typeof v === 'number' && Number.isFinite(v) && v > max) max = v;
    }
  }
  return max;
}
