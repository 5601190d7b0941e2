import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../app/schemas/keys';
import { treeRows, type FolderLoad } from './useTreeFolders';

const folder = (b64: string, label: string, count: number): TreeNode => ({
  kind: 'folder',
  ref: { text: label, bytes: label.length, truncated: false, b64 },
  label,
  count,
});
const key = (b64: string, label: string): TreeNode => ({ kind: 'key', ref: { text: label, bytes: label.length, truncated: false, b64 }, label, count: 1 });
const load = (nodes: TreeNode[], totalNodes = nodes.length, loading = false): FolderLoad => ({ nodes, totalNodes, epoch: 0, loading, error: undefined });

describe('treeRows', () => {
  it('draws open folders under their parent, indented, and closed ones alone', () => {
    const loads = { '': load([folder('dTo=', 'u', 3), folder('djo=', 'v', 1)]), 'dTo=': load([key('dToxCg==', '1'), key('dToy', '2')], 3) };
    const rows = treeRows(loads, new Set(['dTo=']));
    expect(rows.map((r) => [r.kind, r.depth, r.kind === 'node' ? r.node.label : ''])).toEqual([
      ['node', 0, 'u'],
      ['node', 1, '1'],
      ['node', 1, '2'],
      ['more', 1, ''],
      ['node', 0, 'v'],
    ]);
    expect(rows[3]).toMatchObject({ kind: 'more', shown: 2, total: 3 });
  });

  it('says Loading under a folder opened but not read yet', () => {
    const rows = treeRows({ '': load([folder('dTo=', 'u', 3)]) }, new Set(['dTo=']));
    expect(rows.at(-1)).toMatchObject({ kind: 'note', depth: 1, text: 'Loading…' });
  });
});
