import type { ReplyNode } from './schemas/console';

/**
 * A reply as redis-cli prints it: `formatted` as in a terminal (`1) "a"`, `(integer) 3`,
 * `(nil)`, nested `1) 1) …`), `raw` as `redis-cli --raw` does. Pure: the renderer formats a
 * shown reply with it, and the Node side writes a whole, uncut reply to its download file
 * through the same writer, event by event (ReplyTextWriter), so the two never disagree.
 *
 * Checked against redis-cli 7.0 (formatted = `--no-raw`), with these choices where it has none
 * or where the app's one way of showing bytes wins:
 * - Strings are escaped as everywhere in the app (escapeBytes): like redis-cli's `\xHH`, `\n`,
 *   `\"`, except that well-formed UTF-8 shows as text and invisible or bidi characters as
 *   `\u202e`. Simple strings and errors, printed bare by redis-cli, are escaped the same way.
 * - Big numbers (redis-cli 7.0 exits with "Unknown reply type: 13") print `(big number) 123`.
 * - Attributes (a protocol error for redis-cli 7.0) print as a map numbered `1|`; the Node side
 *   keeps a reply's attribute apart from it, so a download file holds none.
 * - A cut tree says so: a cut string ends `"…"… (N bytes)`, a cut aggregate gets one last
 *   entry `(… N more)`.
 * - `raw` prints strings as their bytes: the download file does (the Node side feeds bytes).
 *   A tree only has escaped text, so raw mode turns `\n`, `\r`, `\t`, `\\` and `\"` back into
 *   the characters and keeps `\xHH`, `\a`, `\b` and `\uHHHH` (bytes that are no text, and
 *   characters that would hide or reorder what follows). Verbatim strings, printed as they
 *   are by redis-cli in both modes, follow the same rule.
 * Every top-level reply ends with a newline, as redis-cli prints it.
 */
export type ReplyTextMode = 'formatted' | 'raw';

export type AggregateType = 'array' | 'set' | 'push' | 'map' | 'attribute';
export type ScalarNode = Exclude<ReplyNode, { items: ReplyNode[] } | { entries: [ReplyNode, ReplyNode][] }>;
/** A streamed string: its bytes come in pieces. */
export type StringType = 'bulk' | 'error' | 'verbatim';
/** What a writer hands on: text, or (raw strings) the bytes themselves. */
export type TextPiece = string | Uint8Array;
/** Bytes as escaped text (the Node side passes escapeBytes); `quote` escapes `"` too. */
export type EscapeBytes = (bytes: Uint8Array, quote: boolean) => string;

/** A one-entry map's multi-line test waits for its value at most this many buffered characters. */
const MAX_DEFERRED_CHARS = 1 << 20;

const EMPTY: Record<AggregateType, string> = {
  array: '(empty array)',
  set: '(empty set)',
  push: '(empty push)',
  map: '(empty hash)',
  attribute: '(empty attribute)',
};
const SEPARATOR: Record<AggregateType, string> = { array: ')', set: '~', push: ')', map: '#', attribute: '|' };

/** Escaped text back to the characters raw mode shows (see above); other escapes stay. */
export function unescapeForRaw(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[\s\S])/g, (whole, what: string) => {
    switch (what) {
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case '\\':
        return '\\';
      case '"':
        return '"';
      default:
        return whole;
    }
  });
}

function isMapLike(t: AggregateType): boolean {
  return t === 'map' || t === 'attribute';
}

interface Frame {
  t: AggregateType;
  /** Items, or entries of a map. */
  count: number;
  /** Digits of the largest index (redis-cli's idxlen). */
  width: number;
  /** What entries after the first start with: the prefix this aggregate was printed at. */
  prefix: string;
  /** The prefix of its nested values: `prefix` and width + 2 spaces. */
  childPrefix: string;
  /** Values begun so far (a map counts keys and values). */
  n: number;
}

/**
 * redis-cli 7 prints a map value that spans lines on a line of its own (`"k" => ` then the
 * value below); whether it does depends on the value (`cliIsMultilineValueTTY`): more than one
 * element, or one that is itself multi-line. A one-element value is only known once its
 * element begins, so the text after ` => ` waits in a buffer until then.
 */
interface Deferral {
  /** Null until decided: then "" or the line break and indent to insert. */
  text: string | null;
  insert: string;
  /** The aggregate whose value at index `at` decides. */
  frame: Frame | undefined;
  at: number;
}

type Deciding = { aggregate: false } | { aggregate: true; t: AggregateType; count: number };

/**
 * Prints one reply (or several, one after another) from events: open/close an aggregate,
 * a scalar, or a string in pieces. Feed it a tree (replyText) or a parser (the download file).
 */
export class ReplyTextWriter {
  private readonly stack: Frame[] = [];
  /** The newline ending the last value, held back: a map's ` => ` takes its place. */
  private newlinePending = false;
  private readonly deferrals: Deferral[] = [];
  /** Output waiting on a deferral: pieces, and the deferrals' slots among them. */
  private held: (TextPiece | Deferral)[] = [];
  private heldChars = 0;
  /** The open string: its type, and bytes of an unfinished UTF-8 character at the end of a piece. */
  private string: StringType | undefined;
  private carry: Uint8Array | undefined;

  constructor(
    readonly mode: ReplyTextMode,
    private readonly out: (piece: TextPiece) => void,
    private readonly escape?: EscapeBytes,
  ) {}

  open(t: AggregateType, count: number): void {
    const parent = this.stack[this.stack.length - 1];
    this.begin({ aggregate: true, t, count });
    let width = 1;
    for (let i = count; i >= 10; i = Math.floor(i / 10)) width++;
    const prefix = parent?.childPrefix ?? '';
    const frame: Frame = { t, count, width, prefix, childPrefix: prefix + ' '.repeat(width + 2), n: 0 };
    this.stack.push(frame);
    // A deferral decided by this value waits on its first element (a map: its first value).
    for (const d of this.deferrals) {
      if (d.text !== null || d.frame !== undefined) continue;
      d.frame = frame;
      d.at = isMapLike(t) ? 1 : 0;
    }
  }

  close(): void {
    const frame = this.stack.pop();
    if (frame === undefined) throw new Error('ReplyTextWriter: close() without open()');
    for (const d of this.deferrals) if (d.text === null && d.frame === frame) this.decide(d, false);
    if (frame.n === 0 && this.mode === 'formatted') this.line(EMPTY[frame.t]);
    this.done();
  }

  /** The rest of the open aggregate was cut: one last entry says how much. */
  cut(more: number): void {
    const frame = this.stack[this.stack.length - 1];
    if (frame === undefined) throw new Error('ReplyTextWriter: cut() outside an aggregate');
    const note = `(… ${more} more)`;
    if (this.mode === 'raw') {
      if (frame.n > 0) this.put('\n');
      this.put(note);
    } else {
      this.line((frame.n === 0 ? '' : frame.prefix) + note);
    }
    frame.n += isMapLike(frame.t) ? 2 : 1;
  }

  scalar(node: ScalarNode): void {
    this.begin({ aggregate: false });
    const raw = this.mode === 'raw';
    switch (node.t) {
      case 'simple':
        this.line(raw ? unescapeForRaw(node.v) : node.v);
        break;
      case 'error':
        this.line(raw ? `${unescapeForRaw(node.v)}\n` : `(error) ${node.v}`);
        break;
      case 'integer':
        this.line(raw ? node.v : `(integer) ${node.v}`);
        break;
      case 'double':
        this.line(raw ? node.v : `(double) ${node.v}`);
        break;
      case 'bignum':
        this.line(raw ? node.v : `(big number) ${node.v}`);
        break;
      case 'boolean':
        this.line(node.v ? '(true)' : '(false)');
        break;
      case 'null':
        this.line(raw ? '' : '(nil)');
        break;
      case 'bulk': {
        const shown = raw ? unescapeForRaw(node.v) : `"${node.v}"`;
        this.line(node.cut === true ? `${shown}… (${node.bytes} bytes)` : shown);
        break;
      }
      case 'verbatim': {
        const shown = unescapeForRaw(node.v);
        this.line(node.cut === true ? `${shown}… (${node.bytes} bytes)` : shown);
        break;
      }
    }
    this.done();
  }

  /** A string whose bytes follow in pieces (stringBytes), then stringEnd. */
  stringStart(t: StringType): void {
    this.begin({ aggregate: false });
    this.string = t;
    if (this.mode === 'formatted') {
      if (t === 'bulk') this.put('"');
      else if (t === 'error') this.put('(error) ');
    }
  }

  stringBytes(bytes: Uint8Array): void {
    if (this.string === undefined) throw new Error('ReplyTextWriter: stringBytes() outside a string');
    // redis-cli prints raw strings, and verbatim ones in both modes, as their bytes.
    if (this.mode === 'raw' || this.string === 'verbatim') {
      this.put(bytes);
      return;
    }
    let all = bytes;
    if (this.carry !== undefined) {
      all = new Uint8Array(this.carry.length + bytes.length);
      all.set(this.carry);
      all.set(bytes, this.carry.length);
      this.carry = undefined;
    }
    const keep = unfinishedTail(all);
    if (keep > 0) this.carry = all.slice(all.length - keep);
    if (all.length > keep) this.put(this.escaped(all.subarray(0, all.length - keep)));
  }

  /** A piece of the open string that is plain printable ASCII, other than `"` and `\\`: the same text in both modes. */
  stringPlain(text: string): void {
    if (this.string === undefined) throw new Error('ReplyTextWriter: stringPlain() outside a string');
    // Bytes held back for a character this ASCII does not finish: escaped as the whole would be.
    if (this.carry !== undefined) this.put(this.escaped(this.carry));
    this.carry = undefined;
    this.put(text);
  }

  stringEnd(): void {
    const t = this.string;
    if (t === undefined) throw new Error('ReplyTextWriter: stringEnd() outside a string');
    if (this.carry !== undefined) this.put(this.escaped(this.carry));
    this.carry = undefined;
    this.string = undefined;
    if (this.mode === 'formatted' && t === 'bulk') this.put('"');
    if (this.mode === 'raw' && t === 'error') this.put('\n');
    this.newlinePending = this.mode === 'formatted';
    this.done();
  }

  /** Whether a reply is still open (an aggregate or a string not finished). */
  busy(): boolean {
    return this.stack.length > 0 || this.string !== undefined;
  }

  private escaped(bytes: Uint8Array): string {
    if (this.escape === undefined) throw new Error('ReplyTextWriter: formatted bytes need an escape function');
    return this.escape(bytes, this.string === 'bulk');
  }

  /** Before a value: its index (formatted), its separator (raw), or ` => ` after a map key. */
  private begin(value: Deciding): void {
    const frame = this.stack[this.stack.length - 1];
    if (frame === undefined) return;
    const map = isMapLike(frame.t);
    if (this.mode === 'raw') {
      if (map && frame.n % 2 === 1) this.put(' ');
      else if (frame.n > 0) this.put('\n');
    } else if (map && frame.n % 2 === 1) {
      // redis-cli drops the key's newline (sdsrange(out,0,-2)) and writes " => " there.
      this.newlinePending = false;
      this.put(' => ');
      const multi = multiline(value);
      if (multi === true) this.put(`\n${frame.childPrefix}`);
      else if (multi === undefined) this.defer(`\n${frame.childPrefix}`);
    } else {
      const index = (map ? frame.n / 2 : frame.n) + 1;
      this.put(`${frame.n === 0 ? '' : frame.prefix}${String(index).padStart(frame.width)}${SEPARATOR[frame.t]} `);
    }
    for (const d of this.deferrals) {
      if (d.text !== null || d.frame !== frame || d.at !== frame.n) continue;
      const multi = multiline(value);
      if (multi === undefined)
        d.frame = undefined; // the new aggregate's first element decides
      else this.decide(d, multi);
    }
    frame.n++;
  }

  private defer(insert: string): void {
    const d: Deferral = { text: null, insert, frame: undefined, at: 0 };
    this.deferrals.push(d);
    this.held.push(d);
  }

  private decide(d: Deferral, multi: boolean): void {
    d.text = multi ? d.insert : '';
    this.release();
  }

  /** Hand on what no undecided deferral holds back. */
  private release(): void {
    let i = 0;
    for (; i < this.held.length; i++) {
      const piece = this.held[i] as TextPiece | Deferral;
      if (typeof piece === 'string' || piece instanceof Uint8Array) {
        this.out(piece);
      } else if (piece.text === null) {
        break;
      } else {
        if (piece.text !== '') this.out(piece.text);
        this.deferrals.splice(this.deferrals.indexOf(piece), 1);
      }
    }
    this.held = i === this.held.length ? [] : this.held.slice(i);
    this.heldChars = 0;
    for (const p of this.held) if (typeof p === 'string' || p instanceof Uint8Array) this.heldChars += p.length;
  }

  /** A scalar's text: its newline waits (formatted), a map's ` => ` may take its place. */
  private line(text: string): void {
    this.put(text);
    this.newlinePending = this.mode === 'formatted';
  }

  private put(piece: TextPiece): void {
    if (this.newlinePending) {
      this.newlinePending = false;
      this.emit('\n');
    }
    if (piece.length > 0) this.emit(piece);
  }

  private emit(piece: TextPiece): void {
    if (this.held.length === 0) {
      this.out(piece);
      return;
    }
    this.held.push(piece);
    this.heldChars += piece.length;
    // A one-entry map whose key alone runs to megabytes: stop waiting, call it multi-line.
    if (this.heldChars > MAX_DEFERRED_CHARS) {
      for (const d of this.deferrals) if (d.text === null) d.text = d.insert;
      this.release();
    }
  }

  /** A value ended: a top-level one ends its line. */
  private done(): void {
    if (this.stack.length > 0) return;
    this.newlinePending = false;
    this.emit('\n');
  }
}

/** cliIsMultilineValueTTY for a value that has just begun: undefined while its first element is not known. */
function multiline(value: Deciding): boolean | undefined {
  if (!value.aggregate || value.count === 0) return false;
  if (value.count > 1) return true;
  return undefined;
}

/**
 * Bytes at the end that may begin a UTF-8 character finished by the next piece: held back, so
 * the pieces escape exactly as the whole would (a lead byte never continues an earlier character).
 */
function unfinishedTail(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const b = bytes[bytes.length - back] as number;
    if (b < 0x80) return 0;
    if (b < 0xc0) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    return need > back ? back : 0;
  }
  return 0;
}

/** Walk a (possibly cut) tree into a writer. */
export function writeReply(w: ReplyTextWriter, node: ReplyNode): void {
  switch (node.t) {
    case 'array':
    case 'set':
    case 'push':
      w.open(node.t, node.total);
      for (const item of node.items) writeReply(w, item);
      if (node.total > node.items.length) w.cut(node.total - node.items.length);
      w.close();
      return;
    case 'map':
    case 'attribute':
      w.open(node.t, node.total);
      for (const [k, v] of node.entries) {
        writeReply(w, k);
        writeReply(w, v);
      }
      if (node.total > node.entries.length) w.cut(node.total - node.entries.length);
      w.close();
      return;
    default:
      w.scalar(node);
  }
}

/** The whole text of a (possibly cut) reply tree. */
export function replyText(node: ReplyNode, mode: ReplyTextMode): string {
  const parts: string[] = [];
  writeReply(new ReplyTextWriter(mode, (p) => parts.push(typeof p === 'string' ? p : new TextDecoder().decode(p))), node);
  return parts.join('');
}

/**
 * Commands redis-cli prints raw even in a terminal (cliSendCommand's output_raw): INFO,
 * CLIENT LIST, CLUSTER NODES… Their replies are text meant to be read as lines.
 */
export function redisCliPrintsRaw(args: readonly string[]): boolean {
  const [a = '', b = ''] = args.map((s) => s.toLowerCase());
  const n = args.length;
  if (a === 'info' || a === 'lolwut') return true;
  if (a === 'debug') return n >= 2 && ['htstats', 'htstats-key', 'client-eviction'].includes(b);
  if (a === 'memory') return n >= 2 && (b === 'malloc-stats' || b === 'doctor');
  if (a === 'cluster') return n === 2 && (b === 'nodes' || b === 'info');
  if (a === 'client') return n >= 2 && (b === 'list' || b === 'info');
  if (a === 'latency') return (n === 3 && b === 'graph') || (n === 2 && b === 'doctor');
  return false;
}
