import { useCallback, useEffect, useRef, useState } from 'react';
import { STRING_FIRST_PAGE } from '../../../../app/schemas/keys';
import type { Bridge } from '../../../../app/bridge';
import type { AppError } from '../../../../app/errors';
import { useBridge } from '../../../bridge/BridgeContext';
import { toAppError } from '../../../bridge/toAppError';
import { base64ToBytes } from './valueBytes';
import { readPage, type Where } from './viewProps';

/**
 * Bytes per call. A 256 KB window is read in four calls: each answer (base64 plus escaped text,
 * up to 1.3 MB of JSON for binary bytes) is received and decoded in its own main-thread task,
 * so no single task handles a whole window.
 */
const CALL_BYTES = 64 * 1024;

/** One window of the string (STRING_FIRST_PAGE bytes from `offset`, or to the end), call by call. */
async function readWindow(
  bridge: Bridge,
  where: Where,
  offset: number,
  wanted: () => boolean,
): Promise<{ pages: StringPages['pages']; total: number } | undefined> {
  const pages: StringPages['pages'] = [];
  let at = offset;
  let total = Number.POSITIVE_INFINITY;
  while (at < offset + STRING_FIRST_PAGE && at < total) {
    const r = await readPage(bridge, where, { type: 'string', offset: at, length: CALL_BYTES });
    if (!wanted()) return undefined;
    total = r.total;
    const bytes = base64ToBytes(r.data.b64);
    if (bytes.length === 0) break;
    pages.push({ bytes, text: r.data.text });
    at += bytes.length;
  }
  return { pages, total: total === Number.POSITIVE_INFINITY ? 0 : total };
}

export interface StringPages {
  /** Each page's bytes and its escaped text, in order. */
  pages: { bytes: Uint8Array; text: string }[];
  loaded: number;
  total: number | undefined;
  loading: boolean;
  error: AppError | undefined;
  loadMore(): void;
}

/** A string read 256 KB at a time (GETRANGE), never whole: "load more" reads the next window. */
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
      readWindow(bridge, whereRef.current, offset, () => current.current === id).then(
        (r) => {
          if (current.current !== id || r === undefined) return;
          setS((p) => ({ ident: id, pages: offset === 0 ? r.pages : [...p.pages, ...r.pages], total: r.total, loading: false, error: undefined }));
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
