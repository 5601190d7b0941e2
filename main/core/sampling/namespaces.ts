import type { z } from 'zod';
import type { Namespace } from '../../../app/schemas/sampling';
import { escapeBytes } from '../text/escapeBytes';
import { KEY_TEXT_MAX_CHARS } from '../text/keyText';

/** A row as the tree knows it: the keys it stands for are the report's to estimate (it knows DBSIZE). */
export type NamespaceRow = Omit<z.output<typeof Namespace>, 'keys' | 'keysLow' | 'keysHigh'>;

/** Prefixes deeper than this are counted in their depth-4 ancestor. */
export const NAMESPACE_MAX_DEPTH = 4;
/** Rows in a report: the biggest prefixes, each with its ancestors. */
export const NAMESPACE_MAX_ROWS = 200;
/**
 * Distinct next segments tracked under one prefix. Past it the segment is an id
 * (`user:<id>:`), not a namespace: a million of them would be a million nodes.
 */
export const MAX_CHILDREN = 512;
/** Nodes tracked in all, whatever the shape of the keyspace. */
const MAX_NODES = 50_000;
/**
 * A sub-prefix is listed when it holds this share of its parent's keys: below
 * it, the segment is most likely an id (`queue:<id>:jobs`), one prefix per key.
 */
const MIN_SHARE_OF_PARENT = 0.01;
const COLON = 0x3a;

interface Node {
  /** The last segment's bytes as latin1 (one char a byte), so any key bytes round-trip; the prefix is the path's (prefixOf). */
  segment: string;
  parent: Node | null;
  depth: number;
  count: number;
  memory: number;
  /**
   * Null until a first child: most nodes are ids (`user:<id>:`) that live until the next prune,
   * and a Map and a prefix string each, a million times in a census, kept the collector busy.
   */
  children: Map<string, Node> | null;
  /** Keys whose next segment found no room: counted here, not in a child. */
  folded: number;
}

function node(segment: string, parent: Node | null, depth: number): Node {
  return { segment, parent, depth, count: 0, memory: 0, children: null, folded: 0 };
}

/** The prefix a node stands for, `user:session:`, as latin1. */
function prefixOf(n: Node): string {
  return n.parent === null ? '' : `${prefixOf(n.parent)}${n.segment}:`;
}

const NO_CHILDREN: ReadonlyMap<string, Node> = new Map();
const childrenOf = (n: Node): ReadonlyMap<string, Node> => n.children ?? NO_CHILDREN;

/**
 * Keys split on `:` into a prefix tree with count and memory per prefix
 * (`user:`, `user:session:`), bounded in depth and size while counting.
 * A key adds to every prefix on its path, so a parent's figures are exact
 * even when some of its children were folded into it.
 */
export class PrefixTree {
  /** Counts every key added, so top-level prefixes have a total to be a share of. */
  private readonly root = node('', null, 0);
  private nodes = 0;

  add(key: Buffer, memory: number): void {
    let parent = this.root;
    parent.count++;
    parent.memory += memory;
    let pos = 0;
    for (let depth = 1; depth <= NAMESPACE_MAX_DEPTH; depth++) {
      const colon = key.indexOf(COLON, pos);
      if (colon < 0) return;
      const segment = key.toString('latin1', pos, colon);
      let child = parent.children?.get(segment);
      if (child === undefined) {
        const children = (parent.children ??= new Map());
        if (children.size >= MAX_CHILDREN) this.prune(parent, children);
        if (children.size >= MAX_CHILDREN || this.nodes >= MAX_NODES) {
          parent.folded++;
          return;
        }
        child = node(segment, parent, depth);
        children.set(segment, child);
        this.nodes++;
      }
      child.count++;
      child.memory += memory;
      parent = child;
      pos = colon + 1;
    }
  }

  /**
   * Make room under a full prefix by dropping the children seen once: ids come
   * once each, a real namespace comes again, so one that shows up after the ids
   * filled the slots still gets one. Their keys stay counted in the parent.
   */
  private prune(parent: Node, children: Map<string, Node>): void {
    for (const [segment, c] of children) {
      if (c.count > 1) continue;
      children.delete(segment);
      parent.folded += c.count;
      this.nodes -= size(c);
    }
  }

  /**
   * The biggest prefixes (by keys, then memory), at most `maxRows`, each with
   * its ancestors, flattened parent before children; and what was left out.
   */
  rows(examined: number, maxRows = NAMESPACE_MAX_ROWS): { rows: NamespaceRow[]; warnings: string[] } {
    const all: Node[] = [];
    const collect = (n: Node) => {
      for (const c of childrenOf(n).values()) {
        all.push(c);
        collect(c);
      }
    };
    collect(this.root);
    // A parent sorts before its children (never fewer keys or bytes; ties go to the
    // shallower), so one pass picks the biggest prefixes with all their ancestors.
    all.sort(order);
    const chosen = new Set<Node>([this.root]);
    let notListed = 0;
    for (const n of all) {
      const parent = n.parent as Node;
      if (!chosen.has(parent) || !listable(parent, n)) continue;
      if (chosen.size - 1 < maxRows) chosen.add(n);
      else notListed++;
    }
    const rows: NamespaceRow[] = [];
    const walk = (parent: Node) => {
      const kids = [...childrenOf(parent).values()].filter((c) => chosen.has(c)).sort(order);
      const parentText = text(prefixOf(parent));
      for (const c of kids) {
        rows.push({
          prefix: text(prefixOf(c)),
          parent: parentText,
          depth: c.depth,
          count: c.count,
          memory: c.memory,
          percent: examined > 0 ? (c.count / examined) * 100 : 0,
        });
        walk(c);
      }
    };
    walk(this.root);
    return { rows, warnings: this.warnings(notListed) };
  }

  private warnings(notListed: number): string[] {
    const out: string[] = [];
    const overflowed: Node[] = [];
    const visit = (n: Node) => {
      if (n.folded > 0) overflowed.push(n);
      for (const c of childrenOf(n).values()) visit(c);
    };
    visit(this.root);
    overflowed.sort((a, b) => b.folded - a.folded);
    for (const n of overflowed.slice(0, 3)) {
      const where = n === this.root ? 'at the top level' : `under "${text(prefixOf(n))}"`;
      out.push(
        `namespaces: more than ${MAX_CHILDREN} distinct prefixes ${where} (ids, not namespaces?); ` + `${n.folded} keys are counted only in their parent`,
      );
    }
    if (overflowed.length > 3) out.push(`namespaces: ${overflowed.length - 3} more prefixes had too many children to track`);
    if (notListed > 0) out.push(`namespaces: the biggest prefixes are listed; ${notListed} smaller ones are not`);
    return out;
  }
}

function size(n: Node): number {
  let total = 1;
  for (const c of childrenOf(n).values()) total += size(c);
  return total;
}

function order(a: Node, b: Node): number {
  return b.count - a.count || b.memory - a.memory || a.depth - b.depth;
}

/** A prefix of one key is that key, not a namespace; a tiny share of a parent's keys is an id. */
function listable(parent: Node, child: Node): boolean {
  return child.count >= 2 && (parent.depth === 0 || child.count >= parent.count * MIN_SHARE_OF_PARENT);
}

/** Escaped like a key name, and cut like one (a prefix can be a 10 KB segment). */
function text(latin1: string): string {
  const bytes = Buffer.from(latin1, 'latin1');
  const { text, next } = escapeBytes(bytes, 0, bytes.length, { quote: true, maxChars: KEY_TEXT_MAX_CHARS });
  return next < bytes.length ? `${text}…` : text;
}
