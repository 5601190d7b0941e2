import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppError } from '../../../../app/errors';
import { toAppError } from '../../../bridge/toAppError';

export interface Page<T, C> {
  items: T[];
  /** Where the next page starts, or null at the end. */
  next: C | null;
  total: number;
}

export interface Paged<T> {
  items: T[];
  total: number | undefined;
  more: boolean;
  loading: boolean;
  error: AppError | undefined;
  loadMore(): void;
}

interface State<T, C> {
  key: string;
  items: T[];
  next: C | null;
  total: number | undefined;
  loading: boolean;
  error: AppError | undefined;
}

/**
 * A collection read page by page ("load more"), never whole. `key` names the query (the
 * key, its type and the view's filters): a new key starts over from `first`; an answer
 * for an older query is dropped.
 */
export function usePaged<T, C>(key: string, first: C, fetch: (from: C) => Promise<Page<T, C>>): Paged<T> {
  const [s, setS] = useState<State<T, C>>({ key: '', items: [], next: null, total: undefined, loading: true, error: undefined });
  const current = useRef(key);
  const fetchRef = useRef(fetch);
  useEffect(() => {
    fetchRef.current = fetch;
    current.current = key;
  });

  const run = useCallback((k: string, from: C, append: boolean) => {
    setS((p) => ({ ...(p.key === k ? p : { key: k, items: [], next: null, total: undefined }), loading: true, error: undefined }));
    fetchRef.current(from).then(
      (page) => {
        if (current.current !== k) return;
        setS((p) => ({
          key: k,
          items: append && p.key === k ? [...p.items, ...page.items] : page.items,
          next: page.next,
          total: page.total,
          loading: false,
          error: undefined,
        }));
      },
      (e: unknown) => {
        if (current.current !== k) return;
        setS((p) => ({ ...p, key: k, loading: false, error: toAppError(e) }));
      },
    );
  }, []);

  const firstJson = JSON.stringify(first);
  useEffect(() => {
    current.current = key;
    run(key, JSON.parse(firstJson) as C, false);
  }, [key, firstJson, run]);

  const loadMore = useCallback(() => {
    if (s.next !== null && !s.loading) run(s.key, s.next, true);
  }, [s.next, s.loading, s.key, run]);

  if (s.key !== key) return { items: [], total: undefined, more: false, loading: true, error: undefined, loadMore };
  return { items: s.items, total: s.total, more: s.next !== null, loading: s.loading, error: s.error, loadMore };
}
