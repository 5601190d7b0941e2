/*
 * Reading an untrusted reply's shape: COMMAND DOCS / COMMAND INFO come from whatever answers on
 * the port (a proxy, a fork, a module), so every field is checked before it is used, and every
 * list and text is bounded.
 */

/** Longest text kept from a reply field (a summary, a complexity note). */
export const MAX_TEXT_CHARS = 2_000;
/** Most elements read from any one list of a reply (commands, arguments, flags). */
export const MAX_LIST = 10_000;

/** A bulk or status string (ioredis gives strings; a Buffer is decoded), cut at MAX_TEXT_CHARS. */
export function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v.length > MAX_TEXT_CHARS ? v.slice(0, MAX_TEXT_CHARS) : v;
  if (Buffer.isBuffer(v)) return textOf(v.toString('utf8'));
  return undefined;
}

/** An integer reply (or its digits). */
export function intOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  const s = textOf(v);
  if (s === undefined || !/^-?\d{1,15}$/.test(s)) return undefined;
  return Number(s);
}

/** An array reply, bounded; anything else is an empty list. */
export function listOf(v: unknown, max = MAX_LIST): readonly unknown[] {
  if (!Array.isArray(v)) return [];
  return v.length > max ? v.slice(0, max) : v;
}

/** The strings of an array reply (flags, categories, tips); other elements are skipped. */
export function textsOf(v: unknown): string[] {
  const out: string[] = [];
  for (const item of listOf(v)) {
    const s = textOf(item);
    if (s !== undefined) out.push(s);
  }
  return out;
}

/**
 * A map reply as key/value pairs: RESP2 sends a map as a flat array (k1, v1, k2, v2…);
 * a Map or a plain object (a RESP3 client) is read too. Keys that are not strings are skipped.
 */
export function pairsOf(v: unknown): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if (Array.isArray(v)) {
    const flat = listOf(v, 2 * MAX_LIST);
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const k = textOf(flat[i]);
      if (k !== undefined) out.push([k, flat[i + 1]]);
    }
  } else if (v instanceof Map) {
    for (const [k, val] of v) {
      const key = textOf(k);
      if (key !== undefined) out.push([key, val]);
      if (out.length >= MAX_LIST) break;
    }
  } else if (typeof v === 'object' && v !== null && !Buffer.isBuffer(v)) {
    for (const [k, val] of Object.entries(v).slice(0, MAX_LIST)) out.push([k, val]);
  }
  return out;
}

/**
 * A command name as the server spells it ("get", "config|set", "JSON.GET"), or undefined when
 * it is not one: printable ASCII without spaces, at most 100 characters.
 */
export function commandNameOf(v: unknown): string | undefined {
  const s = textOf(v);
  return s !== undefined && /^[\x21-\x7e]{1,100}$/.test(s) ? s : undefined;
}
