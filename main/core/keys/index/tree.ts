import type { TreeNode } from '../../../../app/schemas/keys';
import { keyRef } from '../keyRef';
import { prefixGlob } from '../../redis/glob';
import type { KeysReader } from './indexTargets';
import type { Folder, KeyIndex } from './keyIndex';
import { scanPage } from './scanPage';

export interface TreeQuery {
  prefix: Buffer;
  sort: 'name' | 'count';
  offset: number;
  limit: number;
}

/**
 * The children of one folder: its sub-folders with their counts, then the keys that end at
 * this level (count 1), sorted by name (bytes) or by count (largest first, then name). Keys
 * whose names went over budget are found by a paced SCAN MATCH of the folder (`reader`).
 */
export async function treeChildren(index: KeyIndex | null, q: TreeQuery, reader: KeysReader): Promise<{ nodes: TreeNode[]; totalNodes: number }> {
  const folder = index?.folder(q.prefix);
  if (index === null || folder === undefined) return { nodes: [], totalNodes: 0 };
  const sep = index.separator;
  const folders = [...(folder.children ?? new Map<string, Folder>())].map(([seg, f]) => ({ seg, f }));
  folders.sort(q.sort === 'count' ? (a, b) => b.f.count - a.f.count || cmp(a.seg, b.seg) : (a, b) => cmp(a.seg, b.seg));
  const totalNodes = folders.length + folder.leafCount;
  const nodes: TreeNode[] = [];
  const end = q.offset + q.limit;
  for (let i = q.offset; i < Math.min(end, folders.length); i++) {
    const { seg, f } = folders[i] as (typeof folders)[number];
    const segBytes = Buffer.from(seg, 'latin1');
    const ref = keyRef(Buffer.concat([q.prefix, segBytes, sep]));
    nodes.push({ kind: 'folder', ref, label: keyRef(segBytes).text, count: f.count });
  }
  if (nodes.length < q.limit && folder.leafCount > 0) {
    const from = Math.max(0, q.offset - folders.length);
    const want = q.limit - nodes.length;
    for (const key of await leafNames(index, folder, q.prefix, from, want, reader)) {
      nodes.push({ kind: 'key', ref: keyRef(key), label: keyRef(key.subarray(q.prefix.length)).text, count: 1 });
    }
  }
  return { nodes, totalNodes };
}

const MAX_PAGES = 5;

async function leafNames(index: KeyIndex, folder: Folder, prefix: Buffer, from: number, want: number, reader: KeysReader): Promise<Buffer[]> {
  const store = index.store;
  if (store !== null && folder.leaves !== null) {
    return index
      .sortedLeaves(folder)
      .slice(from, from + want)
      .map((id) => Buffer.from(store.name(id)));
  }
  // Over budget: the folder's own keys by SCAN MATCH <prefix>*, those with no separator after it.
  const sep = index.separator;
  const direct = (k: Buffer) => k.indexOf(sep, prefix.length) < 0;
  // At most MAX_PAGES pages (of 200 paced calls each): a folder whose own keys are rare in a
  // huge keyspace answers with those found so far rather than holding the call for a whole SCAN.
  const found: Buffer[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await scanPage(reader, prefixGlob(prefix), cursor, from + want - found.length, direct);
    found.push(...page.keys);
    cursor = page.cursor ?? undefined;
  } while (cursor !== undefined && found.length < from + want && ++pages < MAX_PAGES);
  found.sort(Buffer.compare);
  return found.slice(from, from + want);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
