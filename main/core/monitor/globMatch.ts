/**
 * Redis-style glob (`*`, `?`, `[abc]`, `[^a-z]`, `\x` literal) over a string,
 * compiled once per filter. Matching is iterative with one backtrack point (the
 * last `*`), so it is O(pattern × text) at worst and never exponential, unlike a
 * regular expression built from the glob could be.
 */
export function compileGlob(pattern: string): (text: string) => boolean {
  const tokens = tokenize(pattern);
  return (text) => matchTokens(tokens, text);
}

type Token = { kind: 'star' } | { kind: 'any' } | { kind: 'char'; ch: string } | { kind: 'class'; negate: boolean; ranges: [string, string][] };

function tokenize(p: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i] as string;
    if (c === '*') {
      if (out.at(-1)?.kind !== 'star') out.push({ kind: 'star' }); // ** is *
      i++;
    } else if (c === '?') {
      out.push({ kind: 'any' });
      i++;
    } else if (c === '\\' && i + 1 < p.length) {
      out.push({ kind: 'char', ch: p[i + 1] as string });
      i += 2;
    } else if (c === '[') {
      const close = p.indexOf(']', i + 2);
      if (close < 0) {
        out.push({ kind: 'char', ch: c }); // an unclosed [ is literal
        i++;
        continue;
      }
      let j = i + 1;
      const negate = p[j] === '^';
      if (negate) j++;
      const ranges: [string, string][] = [];
      while (j < close) {
        let a = p[j] as string;
        if (a === '\\' && j + 1 < close) a = p[++j] as string;
        if (p[j + 1] === '-' && j + 2 < close) {
          const b = p[j + 2] as string;
          ranges.push(a <= b ? [a, b] : [b, a]);
          j += 3;
        } else {
          ranges.push([a, a]);
          j++;
        }
      }
      out.push({ kind: 'class', negate, ranges });
      i = close + 1;
    } else {
      out.push({ kind: 'char', ch: c });
      i++;
    }
  }
  return out;
}

function matchOne(t: Token, ch: string): boolean {
  switch (t.kind) {
    case 'any':
      return true;
    case 'char':
      return t.ch === ch;
    case 'class': {
      const hit = t.ranges.some(([a, b]) => ch >= a && ch <= b);
      return t.negate ? !hit : hit;
    }
    case 'star':
      return false;
  }
}

function matchTokens(tokens: Token[], text: string): boolean {
  let ti = 0; // token
  let si = 0; // string
  let starTi = -1;
  let starSi = 0;
  while (si < text.length) {
    const t = tokens[ti];
    if (t !== undefined && t.kind === 'star') {
      starTi = ti++;
      starSi = si;
    } else if (t !== undefined && matchOne(t, text[si] as string)) {
      ti++;
      si++;
    } else if (starTi >= 0) {
      ti = starTi + 1;
      si = ++starSi;
    } else {
      return false;
    }
  }
  while (tokens[ti]?.kind === 'star') ti++;
  return ti === tokens.length;
}
