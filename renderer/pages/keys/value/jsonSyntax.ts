/** Where a text stops being JSON (RFC 8259): the character offset, its line and column (1-based), and what was expected there. */
export interface JsonSyntaxError {
  offset: number;
  line: number;
  column: number;
  message: string;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly expected: string,
  ) {
    super(expected);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// Control characters (U+0000–U+001F) must be escaped in a JSON string: built from their code
// points so the pattern's source holds none.
const CONTROL = `${String.fromCharCode(0)}-${String.fromCharCode(0x1f)}`;
const STRING_BODY = new RegExp(`(?:[^"\\\\${CONTROL}]|\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4}))*`, 'y');
const WS = /[ \t\n\r]*/y;

/**
 * The first place `text` is not JSON, or null when it is. The browser's JSON.parse says why but
 * not always where (V8's "Unexpected token" messages name no position), and a person fixing
 * `…50,, broken` needs the line and column: so this walks the grammar itself, without building
 * the value. Iterative over nesting (a deep document cannot overflow the stack).
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const ws = () => {
    WS.lastIndex = i;
    WS.test(text);
    i = WS.lastIndex;
  };
  const value = () => {
    const c = text[i];
    if (c === '"') return str();
    if (c === '{' || c === '[') return c;
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return undefined;
      }
    }
    NUMBER.lastIndex = i;
    if (c !== undefined && NUMBER.test(text)) {
      i = NUMBER.lastIndex;
      return undefined;
    }
    throw new Stop(i, 'a value (an object, array, string, number, true, false or null)');
  };
  const str = () => {
    STRING_BODY.lastIndex = i + 1;
    STRING_BODY.test(text);
    i = STRING_BODY.lastIndex;
    if (text[i] !== '"')
      throw new Stop(
        i,
        i >= text.length ? 'the closing quote of a string' : 'a character allowed in a string (control characters and unknown escapes are not)',
      );
    i += 1;
    return undefined;
  };
  /** An object member's name and colon, leaving i at its value. */
  const name = (expected: string) => {
    if (text[i] !== '"') throw new Stop(i, expected);
    str();
    ws();
    if (text[i] !== ':') throw new Stop(i, 'a colon after the property name');
    i += 1;
    ws();
  };
  try {
    /** The containers open around the current position: '{' or '['. */
    const open: string[] = [];
    ws();
    let opened = value();
    for (;;) {
      if (opened !== undefined) {
        // Just past '{' or '[' (the value() call left i on it).
        i += 1;
        ws();
        const close = opened === '{' ? '}' : ']';
        if (text[i] === close) {
          i += 1;
          opened = undefined;
        } else {
          open.push(opened);
          if (opened === '{') name('a property name in double quotes, or }');
          opened = value();
          continue;
        }
      }
      ws();
      const top = open[open.length - 1];
      if (top === undefined) break;
      const close = top === '{' ? '}' : ']';
      if (text[i] === ',') {
        i += 1;
        ws();
        if (top === '{') name('a property name in double quotes after the comma');
        opened = value();
      } else if (text[i] === close) {
        i += 1;
        open.pop();
      } else {
        throw new Stop(i, `a comma or ${close}`);
      }
    }
    if (i < text.length) throw new Stop(i, 'the end of the text (one JSON value only)');
    return null;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    const before = text.slice(0, e.at);
    const line = before.split('\n').length;
    const column = e.at - (before.lastIndexOf('\n') + 1) + 1;
    const found = e.at >= text.length ? 'the end of the text' : JSON.stringify(text[e.at]);
    return {
      offset: e.at,
      line,
      column,
      message: `Not valid JSON at line ${line}, column ${column} (character ${e.at + 1}): expected ${e.expected}, found ${found}`,
    };
  }
}
