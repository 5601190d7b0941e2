import { useCallback, useEffect, useRef, useState } from 'react';
import { STRING_FIRST_PAGE } from '../../../../app/schemas/keys';
import type { AppError } from '../../../../app/errors';
import { useBridge } from '../../../bridge/BridgeContext';
import { toAppError } from '../../../bridge/toAppError';
import { base64ToBytes } from './valueBytes';
import { readPage, type Where } from './viewProps';

export interface StringPages {
  /** Each page's bytes and its escaped text, in order. */
  pages: { bytes: Uint8Array; text: string }[];
  loaded: number;
  total: number | undefined;
  loading: boolean;
  error: AppError | undefined;
  loadMore(): void;
}

/** A string read 256 KB at a time (GETRANGE), never whole: "load more" reads the next page. */
export function useStringPages(where: Where, version: number): StringPages {
  const bridge = useBridge();
  const ident = `${where.profileId}|${where.db}|${where.key}|${version}`;
  const [s, setS] = useState<{ ident: string; pages: StringPages['pages']; total: number | undefined; loading: boolean; error: AppError | undefined }>({
    ident: '',
    pages: [],
    total: undefined,
    loading: true,
    error: undefined,
  });
  const current = useRef(ident);
  const whereRef = useRef(where);
  useEffect(() => {
    whereRef.current = where;
  });

  const read = useCallback(
    (id: string, offset: number) => {
      setS((p) => (p.ident === id ? { ...p, loading: true, error: undefined } : { ident: id, pages: [], total: undefined, loading: true, error: undefined }));
      readPage(bridge, whereRef.current, { type: 'string', offset, length: STRING_FIRST_PAGE }).then(
        (r) => {
          if (current.current !== id) return;
          const page = { bytes: base64ToBytes(r.data.b64), text: r.data.text };
          setS((p) => ({ ident: id, pages: offset === 0 ? [page] : [...p.pages, page], total: r.total, loading: false, error: undefined }));
        },
        (e: unknown) => {
          if (current.current !== id) return;
          setS((p) => ({ ...p, loading: false, error: toAppError(e) }));
        },
      );
    },
    [bridge],
  );

  useEffect(() => {
    current.current = ident;
    read(ident, 0);
  }, [ident, read]);

  const loaded = s.ident === ident ? s.pages.reduce((n, p) => n + p.bytes.length, 0) : 0;
  const loadMore = useCallback(() => read(ident, loaded), [read, ident, loaded]);
  if (s.ident !== ident) return { pages: [], loaded: 0, total: undefined, loading: true, error: undefined, loadMore };
  return { pages: s.pages, loaded, total: s.total, loading: s.loading, error: s.error, loadMore };
}
