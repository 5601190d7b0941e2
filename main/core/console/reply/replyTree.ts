import type { AggregateType, StringType } from '../../../../app/replyText';
import { REPLY_DISPLAY_BYTES, REPLY_DISPLAY_ELEMENTS, REPLY_STRING_BYTES, type ReplyNode } from '../../../../app/schemas/console';
import { escapeBytes } from '../../text/escapeBytes';
import type { LineType, RespSink } from './respSink';

/** Deeper aggregates are shown empty, with their count: a tree this deep is no longer read, and it keeps recursion safe. */
export const MAX_TREE_DEPTH = 64;

export interface TreeBounds {
  bytes: number;
  elements: number;
  stringBytes: number;
  depth: number;
}

export const DISPLAY_BOUNDS: TreeBounds = {
  bytes: REPLY_DISPLAY_BYTES,
  elements: REPLY_DISPLAY_ELEMENTS,
  stringBytes: REPLY_STRING_BYTES,
  depth: MAX_TREE_DEPTH,
};

/** What a string that is not shown keeps: nothing, without a Buffer each. */
const NOTHING = Buffer.alloc(0);

type Aggregate = Extract<ReplyNode, { total: number }>;

interface Frame {
  /** The aggregate, added to its parent on close; null when it is not shown at all. */
  node: Aggregate | null;
  /** Whether its values are shown (not for a hidden aggregate, nor a stub: one shown empty). */
  showItems: boolean;
  /** A shown map's key waiting for its value. */
  key: ReplyNode | undefined;
  /** The last key was not shown: nor is its value. */
  keyHidden: boolean;
  attribute: boolean;
}

/** How a value that begins is kept: whole (within the bounds), as a stub (a map value past them), or not at all. */
const Show = { Whole: 0, Stub: 1, Hidden: 2 } as const;
type Show = (typeof Show)[keyof typeof Show];

/** The string being read: up to `limit` bytes shown, `kept` holds them and 3 more (a character straddling the limit stays whole). */
interface OpenString {
  t: StringType;
  bytes: number;
  format: string;
  show: Show;
  limit: number;
  kept: Buffer;
  keptBytes: number;
}

/**
 * Builds the ReplyNode of one reply from parser events, within the display bounds: the first
 * values up to `bytes` of data and `elements` values (each string, number and aggregate counts
 * one), each string up to `stringBytes`, aggregates `depth` deep. What is left out is only
 * counted (`total`, `bytes`), and `cut` says the reply needs its download. Shown items are
 * always the first ones; a shown map key always gets its value (a stub, shown empty, once the
 * bounds are passed). Nested attributes are dropped; a top-level one is kept in `attribute`,
 * and values inside it are not counted in the totals.
 */
export class ReplyTreeBuilder implements RespSink {
  root: ReplyNode | undefined;
  attribute: ReplyNode | undefined;
  /** Values and bytes of data of the whole reply. */
  totalElements = 0;
  totalBytes = 0;
  /** Something was left out or shortened: the reply needs its download. */
  cut = false;
  private shownElements = 0;
  private shownBytes = 0;
  /** The bounds were passed: every later value is left out (but a shown key's value, as a stub). */
  private full = false;
  private readonly stack: Frame[] = [];
  /** Depth inside a dropped (nested) attribute, whose events are ignored. */
  private skipping = 0;
  private string: OpenString | undefined;

  constructor(private readonly bounds: TreeBounds = DISPLAY_BOUNDS) {}

  line(t: LineType, buf: Buffer, start: number, end: number): void {
    if (this.skipping > 0) return;
    this.count(end - start);
    if (this.begin(end - start) === Show.Hidden) return;
    let node: ReplyNode;
    if (t === 'null') node = { t };
    else if (t === 'boolean') node = { t, v: buf[start] === 0x74 };
    else if (t === 'simple' || t === 'error') node = { t, v: escapeBytes(buf, start, end).text };
    else node = { t, v: buf.toString('latin1', start, end) };
    this.shownBytes += end - start;
    this.add(node);
  }

  stringStart(t: StringType, bytes: number, format: string): void {
    if (this.skipping > 0) return;
    this.count(bytes);
    const show = this.begin(0);
    const limit = show === Show.Whole ? Math.min(bytes, this.bounds.stringBytes, this.bounds.bytes - this.shownBytes) : 0;
    const keep = show === Show.Whole ? Math.min(bytes, limit + 3) : 0;
    // Known now, not at its end: the reader starts the download file at once instead of
    // keeping a 100 MB string's RESP until then.
    if (bytes > keep && show === Show.Whole) {
      this.cut = true;
      if (limit < Math.min(bytes, this.bounds.stringBytes)) this.full = true;
    }
    this.string = { t, bytes, format, show, limit, kept: keep === 0 ? NOTHING : Buffer.allocUnsafe(keep), keptBytes: 0 };
  }

  stringPiece(buf: Buffer, start: number, end: number): void {
    const s = this.string;
    if (s === undefined || s.keptBytes === s.kept.length) return;
    const take = Math.min(end - start, s.kept.length - s.keptBytes);
    buf.copy(s.kept, s.keptBytes, start, start + take);
    s.keptBytes += take;
  }

  stringEnd(): void {
    const s = this.string;
    if (s === undefined) return;
    this.string = undefined;
    if (s.show === Show.Hidden) return;
    const shown = escapeBytes(s.kept, 0, s.keptBytes, { quote: s.t !== 'error', maxBytes: s.limit });
    const cut = shown.next < s.bytes;
    if (cut) {
      this.cut = true;
      // Shortened by the display budget rather than the per-string bound: nothing more fits.
      if (s.limit < Math.min(s.bytes, this.bounds.stringBytes)) this.full = true;
    }
    this.shownBytes += shown.next;
    const more = cut ? { cut } : {};
    if (s.t === 'error') this.add({ t: 'error', v: cut ? `${shown.text}…` : shown.text });
    else if (s.t === 'verbatim') this.add({ t: 'verbatim', format: s.format, v: shown.text, bytes: s.bytes, ...more });
    else this.add({ t: 'bulk', v: shown.text, bytes: s.bytes, ...more });
  }

  open(t: AggregateType, count: number): void {
    if (this.skipping > 0 || (t === 'attribute' && this.stack.length > 0)) {
      this.skipping++;
      return;
    }
    if (t !== 'attribute') this.count(0);
    let show = this.begin(0);
    if (show === Show.Whole && this.stack.length >= this.bounds.depth) show = Show.Stub;
    if (show === Show.Stub && count > 0) this.cut = true;
    let node: Aggregate | null = null;
    if (show !== Show.Hidden) node = t === 'map' || t === 'attribute' ? { t, entries: [], total: count } : { t, items: [], total: count };
    this.stack.push({ node, showItems: show === Show.Whole, key: undefined, keyHidden: false, attribute: t === 'attribute' });
  }

  close(): void {
    if (this.skipping > 0) {
      this.skipping--;
      return;
    }
    const frame = this.stack.pop();
    if (frame === undefined || frame.node === null) return;
    if (frame.attribute && this.stack.length === 0) this.attribute = frame.node;
    else this.add(frame.node);
  }

  private count(bytes: number): void {
    if (this.stack.length > 0 && (this.stack[0] as Frame).attribute) return;
    this.totalElements++;
    this.totalBytes += bytes;
  }

  /** Whether the value that begins is shown; `lineBytes`: the size of a one-line value. */
  private begin(lineBytes: number): Show {
    const parent = this.stack[this.stack.length - 1];
    let need = 1;
    const mapLike = parent !== undefined && parent.node !== null && 'entries' in parent.node;
    if (parent !== undefined) {
      if (!parent.showItems) return Show.Hidden;
      if (mapLike && parent.key !== undefined) {
        // A shown key's value: room for it was kept when the key was let in.
        return this.full ? Show.Stub : Show.Whole;
      }
      if (mapLike && parent.keyHidden) {
        parent.keyHidden = false;
        return Show.Hidden;
      }
      if (mapLike) need = 2;
    }
    const fits =
      !this.full &&
      this.shownElements + need <= this.bounds.elements &&
      (lineBytes > 0 ? this.shownBytes + lineBytes <= this.bounds.bytes : this.shownBytes < this.bounds.bytes);
    if (!fits && parent !== undefined) {
      this.full = true;
      this.cut = true;
      if (mapLike) parent.keyHidden = true;
      return Show.Hidden;
    }
    this.shownElements += need;
    return Show.Whole;
  }

  /** A finished value into its parent (or as the root). */
  private add(node: ReplyNode): void {
    const parent = this.stack[this.stack.length - 1];
    if (parent === undefined) {
      this.root = node;
      return;
    }
    const agg = parent.node;
    if (agg === null || !parent.showItems) return;
    if (!('entries' in agg)) {
      agg.items.push(node);
    } else if (parent.key === undefined) {
      parent.key = node;
    } else {
      agg.entries.push([parent.key, node]);
      parent.key = undefined;
    }
  }
}
