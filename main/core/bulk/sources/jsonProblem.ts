/** What went wrong in a line JSON.parse refused, and the 0-based index of the offending character. */
export interface JsonProblem {
  message: string;
  index: number;
}

const AT_POSITION = / in JSON at position (\d+)/;
const UNEXPECTED_TOKEN = /^Unexpected token '(.+?)', /s;

/**
 * Explain a JSON.parse failure. V8 gives "… in JSON at position N" for most
 * errors but "Unexpected token 'x', "<the text>" is not valid JSON" (no
 * position, the text echoed) for others; then the position is found by
 * bisecting prefixes: a prefix is still viable when it parses or fails only
 * at its very end, and viability only ever goes from true to false. Error
 * path only, so the O(n log n) re-parsing is fine.
 */
export function jsonProblem(text: string, error: unknown): JsonProblem {
  const message = error instanceof Error ? error.message : String(error);
  const at = AT_POSITION.exec(message);
  if (at) {
    return { message: lowerFirst(message.slice(0, at.index)), index: Math.min(Number(at[1]), text.length) };
  }
  const token = UNEXPECTED_TOKEN.exec(message);
  const index = firstBadIndex(text);
  if (index >= text.length) return { message: 'unexpected end of the line (incomplete JSON)', index: text.length };
  return { message: token ? `unexpected '${token[1]}'` : lowerFirst(message), index };
}

/** Index of the character that makes the text unparseable; text.length when only its end is missing. */
function firstBadIndex(text: string): number {
  if (viable(text)) return text.length;
  let good = 0; // text.slice(0, good) is viable
  let bad = text.length; // text.slice(0, bad) is not
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    if (viable(text.slice(0, mid))) good = mid;
    else bad = mid;
  }
  return bad - 1;
}

function viable(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (e) {
    const m = e instanceof Error ? e.message : '';
    if (m.startsWith('Unexpected end of JSON input')) return true;
    const at = AT_POSITION.exec(m);
    return at !== null && Number(at[1]) >= prefix.length;
  }
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
