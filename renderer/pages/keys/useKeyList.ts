import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallInput, CallOutput } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import type { ListedKey } from '../../../app/schemas/keys';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';

export type ListQuery = Omit<CallInput<'keys.list'>, 'cursor' | 'limit'>;
type ListOutput = CallOutput<'keys.list'>;

/** Keys asked for per page: a screenful or three, so scrolling never waits long. */
const LIST_PAGE = 200;

export interface KeyList {
  keys: ListedKey[];
  /** Every match is listed. */
  complete: boolean;
  source: ListOutput['source'] | undefined;
  total: number | null;
  loading: boolean;
  error: AppError | undefined;
  /** Read the next page (a no-op while one is read, or when complete). */
  more(): void;
  /** The query these keys answer: the controls may already show the next one. */
  query: ListQuery | undefined;
}

interface Slot {
  key: string;
  keys: ListedKey[];
  cursor: string | null | undefined;
  complete: boolean;
  source: ListOutput['source'] | undefined;
  total: number | null;
  loading: boolean;
  error: AppError | undefined;
}

const fresh = (key: string): Slot => ({ key, keys: [], cursor: undefined, complete: false, source: undefined, total: null, loading: false, error: undefined });

/**
 * The keys matching a query, read page by page with keys.list's cursor as the list scrolls.
 * A new query (or `epoch`: the index grew) starts over; an answer for an older one is dropped.
 */
export function useKeyList(query: ListQuery | undefined, epoch: string): KeyList {
  const bridge = useBridge();
  const key = query === undefined ? '' : `${JSON.stringify(query)}|${epoch}`;
  const [slot, setSlot] = useState<Slot>(() => fresh(key));
  const current = slot.key === key ? slot : fresh(key);
  if (slot.key !== key) setSlot(current);
  const busy = useRef<string | undefined>(undefined);

  const fetchPage = useCallback(
    (cursor: string | undefined) => {
      if (query === undefined) return;
      const flight = `${key}|${cursor ?? ''}`;
      if (busy.current === flight) return;
      busy.current = flight;
      setSlot((s) => (s.key === key ? { ...s, loading: true, error: undefined } : s));
      bridge
        .invoke('keys.list', { ...query, cursor, limit: LIST_PAGE })
        .then(
          (r) =>
            setSlot((s) =>
              s.key !== key
                ? s
                : {
                    ...s,
                    keys: [...s.keys, ...r.keys],
                    cursor: r.cursor,
                    complete: r.complete || r.cursor === null,
                    source: r.source,
                    total: r.total,
                    loading: false,
                  },
            ),
          (e: unknown) => setSlot((s) => (s.key !== key ? s : { ...s, loading: false, error: toAppError(e) })),
        )
        .finally(() => {
          if (busy.current === flight) busy.current = undefined;
        });
    },
    // query is what key is made of.
    [bridge, key],
  );

  // The first page of a new query.
  const started = current.source !== undefined || current.loading || current.error !== undefined;
  useEffect(() => {
    if (query !== undefined && !started) fetchPage(undefined);
  }, [query, started, fetchPage]);

  const { loading, complete, cursor, error } = current;
  const more = useCallback(() => {
    if (loading || complete || error !== undefined || cursor === undefined || cursor === null) return;
    fetchPage(cursor);
  }, [loading, complete, cursor, error, fetchPage]);

  return {
    keys: current.keys,
    complete: current.complete,
    source: current.source,
    total: current.total,
    loading: current.loading,
    error: current.error,
    more,
    query,
  };
}
