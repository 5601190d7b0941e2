import { formatCount } from './format';

/** The noun for a count: `one` for exactly 1, else `many` (by default `one` + "s"). */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** A count and its noun: "1 key", "2 keys", "1,204 entries" (grouped as formatCount groups). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${noun(n, one, many)}`;
}
