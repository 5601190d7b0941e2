import type { Locator } from '@playwright/test';

/** The labels of a chart's axis as drawn, first to last. */
export async function tickLabels(chart: Locator, axis: 'x' | 'y'): Promise<string[]> {
  const texts = await chart.locator(`.recharts-${axis}Axis-tick-labels .recharts-cartesian-axis-tick-value`).allTextContents();
  return texts.map((t) => t.trim());
}

const SCALE: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9 };

/**
 * A value-axis label read back as a number in the unit the label shows ("50 MiB" -> 50 MiB,
 * "1.5k" -> 1500, "200 ms" -> 200 ms, "0" -> 0), with that unit; undefined when unreadable.
 */
export function readTick(label: string): { value: number; unit: string } | undefined {
  if (label === '0') return { value: 0, unit: '' };
  const m = /^(-?\d+(?:\.\d+)?)([kMG]?)(?:\s*(B|KiB|MiB|GiB|TiB|ms|s|%))?$/.exec(label);
  if (m === null) return undefined;
  return { value: Number(m[1]) * (SCALE[m[2] ?? ''] ?? 1), unit: m[3] ?? '' };
}

/** 1, 2 or 5 times a power of ten. */
export function isNiceStep(step: number): boolean {
  if (!(step > 0)) return false;
  const pow = 10 ** Math.floor(Math.log10(step) + 1e-9);
  return [1, 2, 5, 10].some((m) => Math.abs(step / pow - m) < 1e-6);
}
