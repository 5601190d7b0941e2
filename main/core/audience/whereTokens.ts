import { ParseFailure } from './parseFailure';

export type TokenKind = 'word' | 'string' | '(' | ')' | '=' | ':' | 'end';

export interface Token {
  kind: TokenKind;
  /** The word or the string's unescaped content; the symbol itself otherwise. */
  text: string;
  /** 0-based offset of the token's first character. */
  position: number;
}

const WORD_CHAR = /[A-Za-z0-9_.+-]/;
const SYMBOLS = new Set(['(', ')', '=', ':']);

/** Splits a `where` text into tokens; a character that starts no token is an error at its position. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (SYMBOLS.has(c)) {
      out.push({ kind: c as TokenKind, text: c, position: i });
      i++;
    } else if (c === '"') {
      const start = i;
      let s = '';
      i++;
      for (;;) {
        if (i >= text.length) {
          throw new ParseFailure(text.length, ['a closing "'], 'end of input', `the string opened at column ${start + 1} is not closed`);
        }
        const d = text[i] as string;
        if (d === '"') break;
        if (d === '\\' && i + 1 < text.length) {
          s += text[i + 1];
          i += 2;
        } else {
          s += d;
          i++;
        }
      }
      i++;
      out.push({ kind: 'string', text: s, position: start });
    } else if (WORD_CHAR.test(c)) {
      const start = i;
      while (i < text.length && WORD_CHAR.test(text[i] as string)) i++;
      out.push({ kind: 'word', text: text.slice(start, i), position: start });
    } else {
      throw new ParseFailure(i, ['an attribute', 'AND', 'OR', 'NOT', '(', ')'], JSON.stringify(c), `unexpected character ${JSON.stringify(c)}`);
    }
  }
  out.push({ kind: 'end', text: 'end of input', position: text.length });
  return out;
}
