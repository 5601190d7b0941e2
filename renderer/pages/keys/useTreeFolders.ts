import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppError } from '../../../app/errors';
import type { TreeNode } from '../../../app/schemas/keys';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import type { IndexWhere } from './useKeysIndex';

/** Children read per call: a folder of 2M keys opens a page at a time ("show more"). */
export const TREE_PAGE = 500;
/** The contract's largest page: a re-read while the scan grows asks for at most this many. */
const MAX_PAGE = 5000;

/** One folder's children as loaded so far. */
export interface FolderLoad {
  nodes: TreeNode[];
  totalNodes: number;
  /** The epoch the nodes were read at; an older one is re-read. */
  epoch: number;
  loading: boolean;
  error: AppError | undefined;
}

export type TreeSort = 'name' | 'count';

interface Slot {
  key: string;
  loads: Record<string, FolderLoad>;
  /** Open folders, by prefix (base64). */
  open: string[];
}

export interface TreeFolders {
  /** Children of each loaded folder by prefix (base64); the root is "". */
  loads: Record<string, FolderLoad>;
  open: ReadonlySet<string>;
  toggle(prefixB64: string, open?: boolean): void;
  more(prefixB64: string): void;
}

/**
 * The namespace tree, read lazily: the root, and each folder once it is opened, a page at a
 * time. While the index grows (`epoch` moves) the open folders are read again, so counts
 * climb in place; what was shown stays until the new page arrives.
 */
export function useTreeFolders(where: IndexWhere, sort: TreeSort, epoch: number, initiallyOpen: readonly string[]): TreeFolders {
  const bridge = useBridge();
  const key = `${where.profileId}|${where.db}|${where.separator}|${sort}`;
  const [slot, setSlot] = useState<Slot>(() => ({ key, loads: {}, open: [...initiallyOpen] }));
  const current = slot.key === key ? slot : { key, loads: {}, open: slot.open };
  if (slot.key !== key) setSlot(current);
  const inFlight = useRef(new Set<string>());

  const load = useCallback(
    (prefixB64: string, offset: number, limit: number, at: number, append: boolean) => {
      const flight = `${key}|${prefixB64}|${offset}|${at}`;
      if (inFlight.current.has(flight)) return;
      inFlight.current.add(flight);
      const patch = (f: (l: FolderLoad | undefined) => FolderLoad) =>
        setSlot((s) => (s.key !== key ? s : { ...s, loads: { ...s.loads, [prefixB64]: f(s.loads[prefixB64]) } }));
      patch((l) => ({ nodes: l?.nodes ?? [], totalNodes: l?.totalNodes ?? 0, epoch: l?.epoch ?? -1, loading: true, error: undefined }));
      bridge
        .invoke('keys.tree', { ...where, prefix: prefixB64, sort, offset, limit })
        .then(
          (r) =>
            patch((l) => ({
              nodes: append ? [...(l?.nodes ?? []), ...r.nodes] : r.nodes,
              totalNodes: r.totalNodes,
              epoch: at,
              loading: false,
              error: undefined,
            })),
          (e: unknown) => patch((l) => ({ nodes: l?.nodes ?? [], totalNodes: l?.totalNodes ?? 0, epoch: at, loading: false, error: toAppError(e) })),
        )
        .finally(() => inFlight.current.delete(flight));
    },
    // where's fields and sort are what key is made of.
    [bridge, key],
  );

  // The root and every open folder, read (again) when missing or older than the epoch.
  useEffect(() => {
    for (const prefix of ['', ...current.open]) {
      const l = current.loads[prefix];
      if (l !== undefined && (l.loading || l.epoch >= epoch)) continue;
      const limit = Math.min(MAX_PAGE, Math.max(TREE_PAGE, l?.nodes.length ?? 0));
      load(prefix, 0, limit, epoch, false);
    }
  }, [current.open, current.loads, epoch, load]);

  const toggle = useCallback(
    (prefixB64: string, open?: boolean) =>
      setSlot((s) => {
        const isOpen = s.open.includes(prefixB64);
        const want = open ?? !isOpen;
        if (want === isOpen) return s;
        return { ...s, open: want ? [...s.open, prefixB64] : s.open.filter((p) => p !== prefixB64) };
      }),
    [],
  );

  const more = useCallback(
    (prefixB64: string) => {
      const l = current.loads[prefixB64];
      if (l === undefined || l.loading) return;
      load(prefixB64, l.nodes.length, TREE_PAGE, l.epoch, true);
    },
    [current.loads, load],
  );

  return { loads: current.loads, open: new Set(current.open), toggle, more };
}

export type TreeRow =
  | { kind: 'node'; node: TreeNode; depth: number }
  | { kind: 'more'; prefixB64: string; depth: number; shown: number; total: number; loading: boolean }
  | { kind: 'note'; prefixB64: string; depth: number; text: string; error: AppError | undefined };

/** The tree as the rows a virtual list draws: each open folder's children under it, indented. */
export function treeRows(loads: Record<string, FolderLoad>, open: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (prefixB64: string, depth: number) => {
    const l = loads[prefixB64];
    if (l === undefined || (l.loading && l.nodes.length === 0)) {
      rows.push({ kind: 'note', prefixB64, depth, text: 'Loading…', error: undefined });
      return;
    }
    if (l.error !== undefined) rows.push({ kind: 'note', prefixB64, depth, text: 'Could not read this folder:', error: l.error });
    for (const node of l.nodes) {
      rows.push({ kind: 'node', node, depth });
      if (node.kind === 'folder' && open.has(node.ref.b64)) walk(node.ref.b64, depth + 1);
    }
    if (l.nodes.length < l.totalNodes) rows.push({ kind: 'more', prefixB64, depth, shown: l.nodes.length, total: l.totalNodes, loading: l.loading });
  };
  walk('', 0);
  return rows;
}
