import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { ListedKey } from '../../../app/schemas/keys';
import type { Filters, ListSort } from './FindBar';
import { ErrorAlert } from '../../components/ErrorAlert';
import { KeyText } from '../../components/KeyText';
import { useActiveRow } from '../../lib/useActiveRow';
import { listStatus, memoryText, ttlText } from './listText';
import type { KeyList as List } from './useKeyList';

const ROW_HEIGHT = 28;
/** Read the next page when this few rows are left below the view. */
const AHEAD = 30;

interface Props {
  list: List | undefined;
  /** Why there is no list (sorting that needs the deep index), with the way out. */
  blocked?: React.ReactNode;
  openKey: string | undefined;
  onKey(key: ListedKey): void;
  /** The column heads sort: name, TTL or memory, ascending or descending. */
  filters: Filters;
  onFilters(f: Filters): void;
  /** Ops only: the bulk actions on every key the list's pattern and filters match. */
  actions?: React.ReactNode;
}

/**
 * The keys found, any number of them: only the rows in view are in the DOM, and the next
 * page is read as the list nears its end. Names are untrusted text (KeyText).
 */
export function KeyList({ list, blocked, openKey, onKey, filters, onFilters, actions }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const keys = list?.keys ?? [];
  const tail = list !== undefined && !list.complete && list.error === undefined ? 1 : 0;
  const virtual = useVirtualizer({ count: keys.length + tail, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 16 });
  const items = virtual.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  const more = list?.more;
  // One tab stop: arrows move through the keys (the next page loads as they near the end), Enter opens one.
  const nav = useActiveRow({ count: keys.length, virtual });
  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (nav.onNavKey(e)) return;
    const k = keys[nav.active];
    if ((e.key === 'Enter' || e.key === ' ') && k !== undefined) {
      e.preventDefault();
      onKey(k);
    }
  };
  const wantMore = tail === 1 && last >= keys.length - AHEAD;
  useEffect(() => {
    if (wantMore) more?.();
  }, [wantMore, more, keys.length, list?.loading]);

  return (
    <div className="keys-list">
      <div className="keys-list-head" role="row">
        <SortHead label="Key" sort="name" filters={filters} onFilters={onFilters} />
        <span role="columnheader">Type</span>
        <SortHead label="TTL" sort="ttl" filters={filters} onFilters={onFilters} num />
        <SortHead label="Memory" sort="memory" filters={filters} onFilters={onFilters} num />
      </div>
      <div
        ref={scroller}
        className="keys-scroll keys-list-scroll"
        role="listbox"
        aria-label="Keys found"
        data-testid="keys-list"
        {...nav.scrollerProps(onKeyDown)}
      >
        {blocked}
        {list?.error !== undefined && <ErrorAlert error={list.error} title="Cannot list keys:" />}
        {list !== undefined && list.complete && keys.length === 0 && <p className="empty keys-empty">No key matches.</p>}
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const k = keys[item.index];
            return (
              <div
                key={item.key}
                className={`keys-vrow${item.index === nav.active ? ' is-active' : ''}`}
                style={{ height: item.size, transform: `translateY(${item.start}px)` }}
              >
                {k === undefined ? (
                  <span className="keys-list-loading muted">{list?.loading === true ? 'Loading…' : ''}</span>
                ) : (
                  <button
                    type="button"
                    role="option"
                    id={nav.idOf(item.index)}
                    tabIndex={-1}
                    aria-selected={openKey === k.key.b64}
                    className={`keys-list-row${openKey === k.key.b64 ? ' is-selected' : ''}`}
                    onClick={() => {
                      nav.setActive(item.index);
                      onKey(k);
                    }}
                    data-testid="keys-row"
                    data-key={k.key.b64}
                  >
                    <KeyText name={k.key} />
                    <span className="keys-type" data-type={k.type ?? ''}>
                      {k.type ?? '—'}
                    </span>
                    <span className="num">{ttlText(k.ttlMs)}</span>
                    <span className="num">{memoryText(k.memory)}</span>
                  </button>
                )}
              </div>
            );
          })}
        </div>
      </div>
      <p
        className="keys-list-status muted"
        data-testid="keys-list-status"
        aria-live="polite"
        // Which filters the status counts for, so a reader can tell it from the one before a change.
        data-no-ttl={list?.query === undefined ? undefined : String(list.query.noTtl)}
        data-type={list?.query?.type ?? ''}
      >
        {list === undefined ? '' : listStatus(list)}
      </p>
      {actions}
    </div>
  );
}

/** A column head that sorts by its column; the sorted one shows its direction and flips it. */
function SortHead({
  label,
  sort,
  filters,
  onFilters,
  num = false,
}: {
  label: string;
  sort: ListSort;
  filters: Filters;
  onFilters(f: Filters): void;
  num?: boolean;
}) {
  const active = filters.sort === sort;
  const flip = active && filters.order === 'asc' ? 'desc' : 'asc';
  return (
    <span role="columnheader" aria-sort={active ? (filters.order === 'asc' ? 'ascending' : 'descending') : 'none'} className={num ? 'num' : undefined}>
      <button
        type="button"
        className={`keys-sorthead${active ? ' is-sorted' : ''}`}
        onClick={() => onFilters({ ...filters, sort, order: active ? flip : 'asc' })}
        title={sort === 'name' ? `Sort by name` : `Sort by ${label} (needs the deep index)`}
        data-testid={`keys-sort-${sort}`}
      >
        {label}
        {active && <span aria-hidden="true">{filters.order === 'asc' ? ' ↑' : ' ↓'}</span>}
      </button>
    </span>
  );
}
