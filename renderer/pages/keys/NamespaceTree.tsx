import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { TreeNode } from '../../../app/schemas/keys';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Segmented } from '../../components/Segmented';
import { formatCount } from '../../lib/format';
import { plural } from '../../lib/plural';
import { useActiveRow } from '../../lib/useActiveRow';
import { treeRows, type TreeFolders, type TreeRow, type TreeSort } from './useTreeFolders';

const ROW_HEIGHT = 26;
const INDENT = 14;

interface Props {
  folders: TreeFolders;
  sort: TreeSort;
  onSort(sort: TreeSort): void;
  /** The selected folder's prefix (base64), "" for the whole DB. */
  selected: string | undefined;
  openKey: string | undefined;
  onFolder(node: TreeNode | undefined): void;
  onKey(node: TreeNode): void;
  /** Keys in the whole DB as the index counts them. */
  total: number | undefined;
  /** Shown after a folder's name, dimmed: `user:` reads as the prefix it is. */
  separator: string;
  /** The index is being built: an empty tree is one still filling in. */
  scanning: boolean;
  /** Ops only: the bulk actions on the selected folder, under the tree. */
  actions?: ReactNode;
}

/**
 * The namespace tree: folders with their key counts, opened lazily; only the rows in view
 * are in the DOM (a folder of a million children scrolls like one of ten).
 */
export function NamespaceTree({ folders, sort, onSort, selected, openKey, onFolder, onKey, total, separator, scanning, actions }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = treeRows(folders.loads, folders.open);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const root = folders.loads[''];
  const nav = useActiveRow({ count: rows.length, virtual, canStop: (i) => rows[i]?.kind !== 'note' });

  /** What a click on the row does: a folder opens and lists its keys, a key opens, "Show more" reads the next page. */
  const activate = (row: TreeRow | undefined) => {
    if (row === undefined || row.kind === 'note') return;
    if (row.kind === 'more') {
      if (!row.loading) folders.more(row.prefixB64);
    } else if (row.node.kind === 'key') onKey(row.node);
    else {
      folders.toggle(row.node.ref.b64, true);
      onFolder(row.node);
    }
  };

  // The tree pattern (WAI-ARIA APG): arrows move, Right opens or steps in, Left closes or steps out, Enter acts.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (nav.onNavKey(e)) return;
    const row = rows[nav.active];
    if (row === undefined) return;
    const folder = row.kind === 'node' && row.node.kind === 'folder' ? row.node : undefined;
    const open = folder !== undefined && folders.open.has(folder.ref.b64);
    if (e.key === 'Enter' || e.key === ' ') activate(row);
    else if (e.key === 'ArrowRight' && folder !== undefined) {
      if (open) nav.moveTo(nav.active + 1);
      else folders.toggle(folder.ref.b64, true);
    } else if (e.key === 'ArrowLeft') {
      if (open) folders.toggle(folder.ref.b64, false);
      else {
        const parent = rows.findLastIndex((r, i) => i < nav.active && r.kind === 'node' && r.depth === row.depth - 1);
        if (parent >= 0) nav.moveTo(parent, -1);
      }
    } else return;
    e.preventDefault();
  };

  // A folder selected by a link or a reload may lie far down: bring it into view once, when its row is drawn.
  const shown = useRef<string | undefined>(undefined);
  const selectedRow = selected === undefined || selected === '' ? -1 : rows.findIndex((r) => r.kind === 'node' && r.node.ref.b64 === selected);
  useEffect(() => {
    if (selectedRow < 0 || shown.current === selected) return;
    shown.current = selected;
    virtual.scrollToIndex(selectedRow, { align: 'auto' });
  }, [selectedRow, selected, virtual]);

  return (
    <section className="panel keys-tree" aria-label="Namespace tree">
      <header className="keys-col-head">
        <h2>Namespaces</h2>
        <Segmented
          label="Sort folders"
          options={[
            { value: 'name', label: 'Name' },
            { value: 'count', label: 'Count' },
          ]}
          value={sort}
          onChange={onSort}
          testId="keys-tree-sort"
        />
      </header>
      <button
        type="button"
        className={`keys-tree-all${selected === '' ? ' is-selected' : ''}`}
        onClick={() => onFolder(undefined)}
        aria-pressed={selected === ''}
        data-testid="keys-tree-all"
      >
        <span>All keys</span>
        <span className="keys-count">{total === undefined ? '' : formatCount(total)}</span>
      </button>
      <div ref={scroller} className="keys-scroll" role="tree" aria-label="Folders and keys" data-testid="keys-tree" {...nav.scrollerProps(onKeyDown)}>
        {root !== undefined && !root.loading && root.error === undefined && root.nodes.length === 0 && (
          <p className="empty keys-empty">{scanning ? 'Folders appear as the scan goes…' : 'No keys in the tree.'}</p>
        )}
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => {
            const row = rows[item.index] as TreeRow;
            return (
              <div
                key={item.key}
                className={`keys-vrow${item.index === nav.active ? ' is-active' : ''}`}
                style={{ height: item.size, transform: `translateY(${item.start}px)` }}
                onClickCapture={() => nav.setActive(item.index)}
              >
                <Row
                  row={row}
                  id={nav.idOf(item.index)}
                  folders={folders}
                  selected={selected}
                  openKey={openKey}
                  onFolder={onFolder}
                  onKey={onKey}
                  separator={separator}
                />
              </div>
            );
          })}
        </div>
      </div>
      {/* After the tree, in the DOM as on screen: Tab reaches the folder's keys before the acts on all of them. */}
      {actions}
    </section>
  );
}

/** One row; its buttons are for the mouse (tabIndex -1): the keyboard works the tree as a whole. */
function Row({
  row,
  id,
  folders,
  selected,
  openKey,
  onFolder,
  onKey,
  separator,
}: { row: TreeRow; id: string } & Pick<Props, 'folders' | 'selected' | 'openKey' | 'onFolder' | 'onKey' | 'separator'>) {
  const pad = { paddingLeft: 6 + row.depth * INDENT };
  if (row.kind === 'note') {
    return row.error === undefined ? (
      <span className="keys-tree-note muted" style={pad} id={id}>
        {row.text}
      </span>
    ) : (
      <div style={pad} className="keys-tree-note" id={id}>
        <ErrorAlert error={row.error} title={row.text} />
      </div>
    );
  }
  if (row.kind === 'more') {
    return (
      <button
        type="button"
        id={id}
        role="treeitem"
        aria-level={row.depth + 1}
        tabIndex={-1}
        className="btn btn-ghost btn-small keys-tree-more"
        style={pad}
        onClick={() => folders.more(row.prefixB64)}
        disabled={row.loading}
      >
        {row.loading ? 'Loading…' : `Show more (${formatCount(row.shown)} of ${formatCount(row.total)})`}
      </button>
    );
  }
  const { node } = row;
  if (node.kind === 'key') {
    return (
      <button
        type="button"
        id={id}
        role="treeitem"
        tabIndex={-1}
        aria-level={row.depth + 1}
        aria-selected={openKey === node.ref.b64}
        className={`keys-tree-row is-key${openKey === node.ref.b64 ? ' is-selected' : ''}`}
        style={pad}
        onClick={() => onKey(node)}
        title={node.ref.text}
        data-testid="keys-tree-key"
        data-key={node.ref.b64}
      >
        <span className="keys-twisty" aria-hidden="true" />
        <span className="keys-tree-label mono">{node.label}</span>
      </button>
    );
  }
  const open = folders.open.has(node.ref.b64);
  return (
    <div
      id={id}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={open}
      aria-selected={selected === node.ref.b64}
      className={`keys-tree-row is-folder${selected === node.ref.b64 ? ' is-selected' : ''}`}
      style={pad}
      data-testid="keys-tree-folder"
      data-prefix={node.ref.text}
    >
      <button
        type="button"
        tabIndex={-1}
        className="keys-twisty"
        aria-label={open ? 'Close folder' : 'Open folder'}
        onClick={() => folders.toggle(node.ref.b64)}
      >
        {open ? '▾' : '▸'}
      </button>
      <button
        type="button"
        tabIndex={-1}
        className="keys-tree-name"
        title={`${node.ref.text} (${plural(node.count, 'key')})`}
        onClick={() => {
          folders.toggle(node.ref.b64, true);
          onFolder(node);
        }}
      >
        <span className="keys-tree-label mono">
          {node.label}
          <span className="keys-sep-mark">{separator}</span>
        </span>
        <span className="keys-count" data-testid="keys-tree-count">
          {formatCount(node.count)}
        </span>
      </button>
    </div>
  );
}
