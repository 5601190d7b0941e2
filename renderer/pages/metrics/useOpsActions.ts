import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppError } from '../../../app/errors';
import type { Restriction } from '../../../app/schemas/restrictions';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { useCall } from '../../bridge/useCall';
import { runKey, type ActionName, type ActionResult } from './actions';

export interface Running {
  action: ActionName;
  address: string;
  /** Local clock: the elapsed time is counted here while the call is out. */
  startedAt: number;
}

export interface Finished {
  action: ActionName;
  address: string;
  result?: ActionResult;
  /** The server refused the command (renamed away, an ACL): the page's one line, not an error. */
  refused?: Restriction;
  error?: AppError;
}

export interface OpsActions {
  running: Running[];
  /** The latest outcome of this page's own runs, newest first (errors included). */
  finished: Finished[];
  history: ActionResult[] | undefined;
  historyError: AppError | undefined;
  /** The actions the chosen node may not run, asked beforehand: shown disabled with their line. */
  restrictions: Restriction[];
  run(address: string, action: ActionName): void;
}

/**
 * BGSAVE / BGREWRITEAOF through `metrics.action`, which resolves only when the
 * fork's child is done (many seconds on a big dataset), plus the profile's record
 * from `metrics.actions`, refreshed after each run, every 30 s (others run them too) and when
 * `refusedKey` (the commands the page's samples were refused) changes.
 */
export function useOpsActions(profileId: string | undefined, address?: string, refusedKey = ''): OpsActions {
  const bridge = useBridge();
  const history = useCall('metrics.actions', profileId === undefined ? undefined : { profileId, ...(address === undefined ? {} : { address }) }, {
    intervalMs: 30_000,
  });
  const [state, setState] = useState<{ profileId: string | undefined; running: Running[]; finished: Finished[] }>({
    profileId,
    running: [],
    finished: [],
  });
  const refresh = useRef(history.refresh);
  useEffect(() => {
    refresh.current = history.refresh;
  });
  // The sampler learns of a refused INFO after the record was first asked for: ask again, so the
  // panel's buttons go off with the page's line rather than up to 30 s later.
  useEffect(() => {
    if (refusedKey !== '') refresh.current();
  }, [refusedKey]);

  const run = useCallback(
    (address: string, action: ActionName) => {
      if (profileId === undefined) return;
      const key = runKey(address, action);
      const mine = (s: typeof state) => (s.profileId === profileId ? s : { profileId, running: [], finished: [] });
      setState((s0) => {
        const s = mine(s0);
        if (s.running.some((r) => runKey(r.address, r.action) === key)) return s;
        return { ...s, running: [...s.running, { action, address, startedAt: Date.now() }] };
      });
      const done = (f: Finished) => {
        setState((s) => {
          // The profile changed while the fork ran: its record shows it when the user comes back.
          if (s.profileId !== profileId) return s;
          return {
            ...s,
            running: s.running.filter((r) => runKey(r.address, r.action) !== key),
            finished: [f, ...s.finished.filter((x) => runKey(x.address, x.action) !== key)].slice(0, 10),
          };
        });
        refresh.current();
      };
      bridge.invoke('metrics.action', { profileId, address, action }).then(
        (r) => done('refused' in r ? { action, address, refused: r.refused } : { action, address, result: r }),
        (e: unknown) => done({ action, address, error: toAppError(e) }),
      );
    },
    [bridge, profileId],
  );

  const own = state.profileId === profileId ? state : { running: [], finished: [] };
  return {
    running: own.running,
    finished: own.finished,
    history: history.data?.actions,
    historyError: history.error,
    restrictions: history.data?.restrictions ?? [],
    run,
  };
}
