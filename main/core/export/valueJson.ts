import { isUtf8 } from 'node:buffer';
import type { ValuePage } from './keyPages';

/** Every byte string of a page (not zset scores nor stream ids: Redis sends those as ASCII). */
function* strings(page: ValuePage): Generator<Buffer> {
  switch (page.type) {
    case 'string':
      yield page.bytes;
      return;
    case 'hash':
    case 'list':
    case 'set':
      yield* 'pairs' in page ? page.pairs : page.items;
      return;
    case 'zset':
      for (let i = 0; i < page.pairs.length; i += 2) yield page.pairs[i] as Buffer;
      return;
    case 'stream':
      for (const e of page.entries) yield* e.fields;
  }
}

/**
 * Whether the page must be written as base64: JSON text is UTF-8, so bytes that are not valid
 * UTF-8 cannot be a JSON string as they are. Decided per page (a line), all strings at once, so
 * a reader never guesses which string of a line is encoded.
 */
export function pageNeedsBase64(page: ValuePage): boolean {
  for (const s of strings(page)) if (!isUtf8(s)) return true;
  return false;
}

/**
 * The page's value as JSON text (docs/export.md): string → string, hash → object, list and set →
 * array, zset → [[member, score]…], stream → [[id, {field: value}]…]; with `b64`, every string
 * of it as base64. A score is a JSON number, or the string "inf" / "-inf" (JSON has no infinity).
 */
export function pageJson(page: ValuePage, b64: boolean): string {
  const s = (b: Buffer) => JSON.stringify(b64 ? b.toString('base64') : b.toString('utf8'));
  switch (page.type) {
    case 'string':
      return s(page.bytes);
    case 'hash':
      return `{${pairs(page.pairs, (f, v) => `${s(f)}:${s(v)}`)}}`;
    case 'list':
    case 'set':
      return `[${page.items.map(s).join(',')}]`;
    case 'zset':
      return `[${pairs(page.pairs, (m, score) => `[${s(m)},${scoreJson(score.toString('latin1'))}]`)}]`;
    case 'stream':
      return `[${page.entries.map((e) => `[${JSON.stringify(e.id)},{${pairs(e.fields, (f, v) => `${s(f)}:${s(v)}`)}}]`).join(',')}]`;
  }
}

function pairs(flat: Buffer[], one: (a: Buffer, b: Buffer) => string): string {
  const out: string[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push(one(flat[i] as Buffer, flat[i + 1] as Buffer));
  return out.join(',');
}

/** Redis prints a double's shortest round-trip form (or inf, -inf); Number() reads it back exactly. */
function scoreJson(text: string): string {
  const n = Number(text);
  if (Number.isFinite(n)) return JSON.stringify(n);
  // Redis writes "inf" / "-inf", which Number() does not read.
  return JSON.stringify(text.startsWith('-') ? '-inf' : 'inf');
}
