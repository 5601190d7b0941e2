/** Largest value the JSON view parses, in the page: past it, the decoded view (off the UI thread) is the way. */
export const JSON_MAX_BYTES = 1024 * 1024;

export type JsonParse = { ok: true; value: unknown } | { ok: false; reason: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The loaded bytes as JSON, or why not: only a whole value is parsed (half a document is
 * never valid), only up to JSON_MAX_BYTES, and only valid UTF-8.
 */
export function parseJsonValue(bytes: Uint8Array, total: number): JsonParse {
  if (total > JSON_MAX_BYTES) {
    return {
      ok: false,
      reason: `The value is ${total.toLocaleString('en-US')} bytes; the JSON view parses up to 1 MiB in the page. Use the decoded view (as json), which runs on the server, capped.`,
    };
  }
  if (bytes.length < total) return { ok: false, reason: 'Only part of the value is loaded: load the rest to see it as JSON.' };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: 'The value is not UTF-8 text, so it is not JSON. Try the hex or decoded view.' };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, reason: `Not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** How a JSON node reads collapsed: `{3 keys}`, `[12 items]`, or the literal. */
export function jsonSummary(v: unknown): string {
  if (Array.isArray(v)) return `[${v.length.toLocaleString('en-US')} item${v.length === 1 ? '' : 's'}]`;
  if (v !== null && typeof v === 'object') {
    const n = Object.keys(v).length;
    return `{${n.toLocaleString('en-US')} key${n === 1 ? '' : 's'}}`;
  }
  return JSON.stringify(v) ?? String(v);
}

/** A node's children as [label, value] pairs (own keys only; `__proto__` is just a key here). */
export function jsonChildren(v: unknown): [string, unknown][] {
  if (Array.isArray(v)) return v.map((x, i) => [String(i), x]);
  if (v !== null && typeof v === 'object') return Object.entries(v as Record<string, unknown>);
  return [];
}

export function isJsonBranch(v: unknown): boolean {
  return v !== null && typeof v === 'object';
}
