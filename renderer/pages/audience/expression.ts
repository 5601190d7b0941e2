/**
 * The builder's side of the `where` syntax: what it picked, written out as text the
 * server parses (`gender=f AND (region=NE OR region=MA) AND NOT interest=golf`).
 * Attribute names and values come from Redis keys, so nothing here trusts them.
 */

/** One attribute's picked values: any of them (OR), or none of them (NOT, when `exclude`). */
export interface AttributePick {
  name: string;
  values: readonly string[];
  exclude: boolean;
}

/** What the server's tokenizer reads as one word; anything else must be quoted. */
const WORD = /^[A-Za-z0-9_.+-]+$/;
const KEYWORDS = new Set(['AND', 'OR', 'NOT']);

function isBareWord(s: string): boolean {
  return WORD.test(s) && !KEYWORDS.has(s.toUpperCase());
}

/**
 * Why an attribute cannot appear in an expression, or undefined when it can: names
 * have no quoted form, so a key like `attr:home town:x` gives a name the syntax cannot say.
 */
export function unusableName(name: string): string | undefined {
  if (isBareWord(name)) return undefined;
  if (WORD.test(name)) return `"${name}" is a keyword of the expression syntax`;
  return 'its name holds characters an expression cannot name (letters, digits and _ . + - only)';
}

/** A value as the syntax takes it: bare when it is a plain word, else in double quotes with \ escapes. */
export function valueText(value: string): string {
  return isBareWord(value) ? value : `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export function termText(name: string, value: string): string {
  return `${name}=${valueText(value)}`;
}

/** AND over the attributes, OR over one attribute's values; "" when nothing is picked. */
export function composeWhere(picks: readonly AttributePick[]): string {
  const parts: string[] = [];
  for (const p of picks) {
    if (p.values.length === 0 || unusableName(p.name) !== undefined) continue;
    const terms = p.values.map((v) => termText(p.name, v));
    const group = terms.length === 1 ? (terms[0] as string) : `(${terms.join(' OR ')})`;
    parts.push(p.exclude ? `NOT ${group}` : group);
  }
  return parts.join(' AND ');
}

function update(picks: readonly AttributePick[], name: string, change: (p: AttributePick) => AttributePick): AttributePick[] {
  const at = picks.findIndex((p) => p.name === name);
  const current = at < 0 ? { name, values: [], exclude: false } : (picks[at] as AttributePick);
  const next = change(current);
  const rest = picks.filter((p) => p.name !== name);
  if (next.values.length === 0 && !next.exclude) return rest;
  // An attribute keeps its place; a new one goes last, so the text grows in the order it was built.
  return at < 0 ? [...rest, next] : [...picks.slice(0, at), next, ...picks.slice(at + 1)];
}

/** Pick a value, or drop it when it is already picked. */
export function toggleValue(picks: readonly AttributePick[], name: string, value: string): AttributePick[] {
  return update(picks, name, (p) => ({
    ...p,
    values: p.values.includes(value) ? p.values.filter((v) => v !== value) : [...p.values, value],
  }));
}

/** "any of" (false) or "none of" (true) for one attribute. */
export function setExclude(picks: readonly AttributePick[], name: string, exclude: boolean): AttributePick[] {
  return update(picks, name, (p) => ({ ...p, exclude }));
}

/**
 * Terms the server has no key for, in words: an attribute it never saw is named as
 * such, a known attribute's missing value as that value (from the discovered attributes).
 */
export function unknownText(term: { name: string; value: string }, known: readonly { name: string }[] | undefined): string {
  if (known !== undefined && !known.some((a) => a.name === term.name)) return `unknown attribute "${term.name}" (in ${termText(term.name, term.value)})`;
  return `no users hold ${termText(term.name, term.value)}`;
}
