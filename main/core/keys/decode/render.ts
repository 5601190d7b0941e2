import { escapeBytes } from '../../text/escapeBytes';

/**
 * Renders a decoded value as pretty JSON-like text, to be shown as text (never as HTML):
 * strings are quoted and escaped as everywhere else (control, invisible and bidi characters as
 * escapes), bytes as b"…", BigInts as digits, Maps with any keys, class instances with their
 * class name. The walk is bounded: past `depth` levels a value is shown as "…", and the text
 * stops at `maxChars` (truncated). Iterative over the output budget, recursive only up to `depth`.
 */
export interface RenderOptions {
  depth: number;
  maxChars: number;
  /** A class label for a value the generic rules don't name (a pickle object, a PHP class…). */
  label?: (value: object) => string | undefined;
  /** A value shown as one word (a 64-bit Long as its digits), when it is one. */
  scalar?: (value: object) => string | undefined;
  /** The entries to show for such a value, when its own enumerable properties aren't them. */
  entries?: (value: object) => Array<[unknown, unknown]> | undefined;
}

export interface Rendered {
  text: string;
  truncated: boolean;
}

class Full extends Error {}

const INDENT = '  ';

export function quoteText(s: string): string {
  const buf = Buffer.from(s, 'utf8');
  return `"${escapeBytes(buf, 0, buf.length, { quote: true }).text}"`;
}

function bytesText(b: Uint8Array): string {
  return `b"${escapeBytes(b, 0, b.length, { quote: true }).text}"`;
}

export function renderValue(value: unknown, opts: RenderOptions): Rendered {
  let out = '';
  let truncated = false;
  const write = (s: string): void => {
    if (out.length + s.length > opts.maxChars) {
      out += s.slice(0, Math.max(0, opts.maxChars - out.length));
      truncated = true;
      throw new Full();
    }
    out += s;
  };
  // Values on the path from the root: a cycle (pickle memo, Java back-references) is shown once.
  const path = new Set<object>();

  const key = (k: unknown, level: number): void => {
    if (typeof k === 'string') write(quoteText(k));
    else walk(k, level);
  };

  /** Items are walked lazily: a 10M-element array costs only what fits in the text. */
  const block = (open: string, close: string, items: Iterable<[unknown, unknown] | [unknown]>, level: number): void => {
    const pad = INDENT.repeat(level + 1);
    let first = true;
    for (const item of items) {
      write(first ? `${open}\n${pad}` : `,\n${pad}`);
      first = false;
      if (item.length === 2) {
        key(item[0], level + 1);
        write(': ');
        walk(item[1], level + 1);
      } else walk(item[0], level + 1);
    }
    write(first ? open + close : `\n${INDENT.repeat(level)}${close}`);
  };

  function* singles(xs: Iterable<unknown>): Iterable<[unknown]> {
    for (const x of xs) yield [x];
  }

  function* props(o: object): Iterable<[unknown, unknown]> {
    for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k)) yield [k, (o as Record<string, unknown>)[k]];
  }

  function walk(v: unknown, level: number): void {
    if (v === null) return write('null');
    switch (typeof v) {
      case 'undefined':
        return write('undefined');
      case 'boolean':
        return write(String(v));
      case 'number':
        return write(Object.is(v, -0) ? '-0' : String(v));
      case 'bigint':
        return write(v.toString());
      case 'string':
        return write(quoteText(v));
      case 'symbol':
      case 'function':
        // A decoder's own class or resolver (a pickle GLOBAL): named, never called.
        return write(`<${typeof v} ${quoteText(String((v as { name?: unknown }).name ?? ''))}>`);
    }
    const o = v as object;
    if (o instanceof Uint8Array) return write(bytesText(o));
    if (o instanceof Date) return write(Number.isNaN(o.getTime()) ? 'Date(invalid)' : `Date(${o.toISOString()})`);
    const word = opts.scalar?.(o);
    if (word !== undefined) return write(word);
    if (path.has(o)) return write('<cycle>');
    if (level >= opts.depth) return write('…');
    path.add(o);
    try {
      const label = opts.label?.(o);
      const own = opts.entries?.(o);
      if (label !== undefined) write(`${label} `);
      if (o instanceof String || o instanceof Number || o instanceof Boolean) walk(o.valueOf(), level);
      else if (own !== undefined) block('{', '}', own, level);
      else if (Array.isArray(o)) block('[', ']', singles(o), level);
      else if (o instanceof Map) block('Map {', '}', o.entries(), level);
      else if (o instanceof Set) block('Set [', ']', singles(o), level);
      else block('{', '}', props(o), level);
    } finally {
      path.delete(o);
    }
  }

  try {
    walk(value, 0);
  } catch (e) {
    if (!(e instanceof Full)) throw e;
  }
  return { text: out, truncated };
}
