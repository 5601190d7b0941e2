import { useCallback, useEffect, useRef, useState } from 'react';
import type { StreamEvent } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import type { IndexState } from '../../../app/schemas/keys';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { useCall } from '../../bridge/useCall';
import { useStream } from '../../bridge/useStream';

/** Which index: one per (profile, DB, separator) on the server. */
export interface IndexWhere {
  profileId: string;
  db: number;
  separator: string;
}

interface Followed {
  state: IndexState | undefined;
  outcome: 'done' | 'cancelled' | 'failed' | undefined;
  error: AppError | undefined;
}

const NOTHING: Followed = { state: undefined, outcome: undefined, error: undefined };

function fold(v: Followed, events: readonly StreamEvent<'keys.index.progress'>[]): Followed {
  let next = v;
  for (const e of events) {
    if (e.kind === 'progress') next = { ...next, state: e.state };
    else if (e.kind === 'failed') next = { ...next, outcome: 'failed', error: toAppError(e.error) };
    else next = { state: e.state, outcome: e.kind, error: undefined };
  }
  return next;
}

/** How often the tree re-reads its open folders while the scan fills them in. */
const GROW_MS = 1500;

export interface KeysIndex {
  /** Where the index stands: the followed job's latest state, else what the server says it holds. */
  state: IndexState | undefined;
  /** The job being followed (to cancel it), while it runs. */
  runningJobId: string | undefined;
  /** Start (or restart: Re-index) a build; `deep` also records type, TTL and memory per key. */
  start(deep: boolean): Promise<void>;
  starting: boolean;
  /** Why a start, the state probe or the followed job failed. */
  error: AppError | undefined;
  /** Bumped while the scan runs and once when it ends: the open folders re-read then. */
  epoch: number;
  /** Bumped when a build ends, or the index took out keys a bulk delete removed: a key list (which would lose its scroll on every tick) starts over only then. */
  builds: number;
  /** Read the server's state again (a bulk action just ended: the index checks what it removed, and says so meanwhile). */
  reload(): void;
}

/**
 * The namespace index of one DB: what the server holds (a cheap `keys.tree` of one node tells
 * the state), the build it runs, followed over its progress stream. Opening the page asks the
 * server to open its kept index (keys.index.open): reused at once, scanned only when there is
 * none or it is older than its stated age (state.maxAgeMs).
 */
export function useKeysIndex(where: IndexWhere): KeysIndex {
  const bridge = useBridge();
  const whereKey = `${where.profileId}|${where.db}|${where.separator}`;
  const probe = useCall('keys.tree', { ...where, prefix: '', limit: 1 });
  const [job, setJob] = useState<{ whereKey: string; jobId: string }>();
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<{ whereKey: string; error: AppError }>();
  const probed = probe.data?.state;
  const jobId = job?.whereKey === whereKey ? job.jobId : probed?.status === 'building' ? (probed.jobId ?? undefined) : undefined;
  const followed = useStream('keys.index.progress', jobId === undefined ? undefined : { jobId }, fold, NOTHING);
  const v = followed.value;
  const running = jobId !== undefined && v.outcome === undefined && (followed.error === undefined || followed.error.code === 'DISCONNECTED');

  const start = useCallback(
    async (deep: boolean) => {
      setStarting(true);
      setStartError(undefined);
      try {
        const started = await bridge.invoke('keys.index.start', { ...where, deep });
        setJob({ whereKey, jobId: started.jobId });
      } catch (e) {
        setStartError({ whereKey, error: toAppError(e) });
      } finally {
        setStarting(false);
      }
    },
    // where's fields are what whereKey is made of.
    [bridge, whereKey],
  );

  // The page opens: the server reuses the index it keeps for this (connection, DB, separator),
  // or scans when it has none or its scan is past its stated age. Once per mount and place.
  const opened = useRef(new Set<string>());
  const refreshOnOpen = probe.refresh;
  useEffect(() => {
    if (opened.current.has(whereKey)) return;
    opened.current.add(whereKey);
    void bridge.invoke('keys.index.open', where).then(
      (o) => {
        if (o.jobId !== null) setJob({ whereKey, jobId: o.jobId });
        else refreshOnOpen();
      },
      (e: unknown) => setStartError({ whereKey, error: toAppError(e) }),
    );
    // where's fields are what whereKey is made of.
  }, [bridge, whereKey, refreshOnOpen]);

  const [epoch, setEpoch] = useState(0);
  const [builds, setBuilds] = useState(0);
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setEpoch((e) => e + 1), GROW_MS);
    return () => clearInterval(t);
  }, [running]);
  const outcome = v.outcome;
  const refreshProbe = probe.refresh;
  useEffect(() => {
    if (outcome === undefined) return;
    setEpoch((e) => e + 1);
    setBuilds((b) => b + 1);
    refreshProbe();
  }, [outcome, refreshProbe]);

  // While the server checks which keys a bulk delete removed, its state is read again until done;
  // then the tree and the list read again.
  const rechecking = probed?.rechecking === true;
  const wasRechecking = useRef(false);
  useEffect(() => {
    if (rechecking) {
      wasRechecking.current = true;
      const t = setTimeout(refreshProbe, GROW_MS);
      return () => clearTimeout(t);
    }
    if (!wasRechecking.current) return;
    wasRechecking.current = false;
    setEpoch((e) => e + 1);
    setBuilds((b) => b + 1);
  }, [rechecking, probe.data, refreshProbe]);

  const reload = useCallback(() => {
    refreshProbe();
    setEpoch((e) => e + 1);
  }, [refreshProbe]);

  // Once the followed build has ended and the server was asked again, its answer rules: the index
  // changes after its build too (a bulk delete's keys taken out, what is stale said meanwhile).
  const probedIsCurrent = probed !== undefined && !running && (jobId === undefined || (probed.jobId === jobId && probed.status !== 'building'));

  const streamError = followed.error !== undefined && followed.error.code !== 'DISCONNECTED' ? followed.error : undefined;
  return {
    state: probedIsCurrent ? probed : ((jobId !== undefined ? v.state : undefined) ?? probed),
    runningJobId: running ? jobId : undefined,
    start,
    starting,
    error: (startError?.whereKey === whereKey ? startError.error : undefined) ?? v.error ?? streamError ?? probe.error,
    epoch,
    builds,
    reload,
  };
}
