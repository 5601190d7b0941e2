import { useEffect, useRef, useState } from 'react';
import type { AppError } from '../../../../app/errors';
import type { FoundElement } from '../../../../app/schemas/keys';
import { useBridge } from '../../../bridge/BridgeContext';
import type { Where } from './viewProps';

export interface FindState {
  /** The glob being found (base64), or undefined: no find, the view pages the value. */
  match: string | undefined;
  running: boolean;
  /** Stopped by the user before the walk read every element. */
  stopped: boolean;
  done: boolean;
  exact: boolean;
  scanned: number;
  total: number | undefined;
  matched: number;
  notShown: number;
  found: FoundElement[];
  error: AppError | undefined;
}

export interface Find extends FindState {
  /** Find by this glob's bytes (base64); undefined clears the find. */
  start(match: string | undefined): void;
  stop(): void;
}

const IDLE: FindState = {
  match: undefined,
  running: false,
  stopped: false,
  done: false,
  exact: false,
  scanned: 0,
  total: undefined,
  matched: 0,
  notShown: 0,
  found: [],
  error: undefined,
};

/**
 * Finding elements of a hash, set or sorted set (keys.findElements): an exact name answers at
 * once, a glob streams progress and the first matches. A new key, a new version (an edit landed,
 * Reload) or a new glob runs it again; Stop unsubscribes, which stops the walk on the server,
 * and keeps what was found.
 */
export function useFindElements(where: Where, type: 'hash' | 'set' | 'zset', version: number): Find {
  const bridge = useBridge();
  const [s, setS] = useState<FindState>(IDLE);
  const unsubscribe = useRef<(() => void) | null>(null);
  const { profileId, db, key } = where;
  const { match } = s;

  useEffect(() => {
    if (match === undefined) return;
    setS({ ...IDLE, match, running: true });
    let live = true;
    const stop = bridge.subscribe(
      'keys.findElements',
      { profileId, db, key, type, match },
      {
        onEvents: (events) => {
          if (!live) return;
          setS((p) => {
            let next = p;
            for (const e of events) {
              const found = [...next.found, ...e.found];
              next = { ...next, scanned: e.scanned, total: e.total, matched: e.matched, found, notShown: Math.max(0, e.matched - found.length) };
              if (e.kind === 'done') next = { ...next, done: true, running: false, exact: e.exact, notShown: e.notShown };
            }
            return next;
          });
        },
        onEnd: (error) => {
          if (!live) return;
          setS((p) => ({ ...p, running: false, error }));
        },
      },
    );
    unsubscribe.current = stop;
    return () => {
      live = false;
      unsubscribe.current = null;
      stop();
    };
  }, [bridge, profileId, db, key, type, match, version]);

  return {
    ...s,
    start: (m) => setS(m === undefined ? IDLE : { ...IDLE, match: m, running: true }),
    stop: () => {
      unsubscribe.current?.();
      unsubscribe.current = null;
      setS((p) => (p.running ? { ...p, running: false, stopped: true } : p));
    },
  };
}
