import { useEffect, useRef, useState } from 'react';
import type { AppError } from '../../../app/errors';
import type { Alert, MetricsEvent } from '../../../app/schemas/metrics';
import { useBridge, useLinkStatus } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { foldAlerts, forgetActive } from './alerts';
import { EMPTY_METRICS, reduceMetrics, type MetricsState } from './metricsState';
import { LAG_BYTES_THRESHOLD, LAG_SECONDS_THRESHOLD } from './replication';
import type { Bounds } from './timeSeries';

export const POLL_MS = 1000;
/** 15 minutes at one poll a second is 900 points a node; the cap covers faster polls. */
export const BOUNDS: Bounds = { windowMs: 15 * 60_000, maxPoints: 1000 };
const RETRY_MS = [1000, 2000, 5000] as const;

export interface MetricsWatch {
  state: MetricsState;
  /** Why the watch stream last ended; cleared by its next batch. */
  error: AppError | undefined;
  /** A batch arrived on the current subscription. */
  live: boolean;
}

interface Slot extends MetricsWatch {
  profileId: string | undefined;
}

/**
 * `metrics.watch` and `metrics.alerts` of one profile, folded into one state. Unlike
 * useStream, an ended stream is subscribed again after a short wait: the server ends
 * it when it cannot reach the profile's node, and the page must recover by itself.
 */
export function useMetricsWatch(profileId: string | undefined): MetricsWatch {
  const bridge = useBridge();
  const { epoch } = useLinkStatus();
  const [slot, setSlot] = useState<Slot>({ profileId: undefined, state: EMPTY_METRICS, error: undefined, live: false });
  const [watchRetry, setWatchRetry] = useState(0);
  const [alertsRetry, setAlertsRetry] = useState(0);
  // Across resubscribes, so the wait grows while the stream keeps failing.
  const failures = useRef(0);

  // Every update goes through here: a slot left from another profile starts over.
  const update = (id: string, f: (s: Slot) => Slot) =>
    setSlot((s) => f(s.profileId === id ? s : { profileId: id, state: EMPTY_METRICS, error: undefined, live: false }));

  useEffect(() => {
    if (profileId === undefined) return;
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = bridge.subscribe(
      'metrics.watch',
      { profileId, intervalMs: POLL_MS, lagBytesThreshold: LAG_BYTES_THRESHOLD, lagSecondsThreshold: LAG_SECONDS_THRESHOLD },
      {
        onEvents: (events: MetricsEvent[]) => {
          if (!alive) return;
          failures.current = 0;
          update(profileId, (s) => ({ ...s, state: reduceMetrics(s.state, events, BOUNDS), error: undefined, live: true }));
        },
        onEnd: (error) => {
          if (!alive) return;
          update(profileId, (s) => ({ ...s, live: false, error: error === undefined ? undefined : toAppError(error) }));
          // A dropped transport comes back through `epoch`; anything else is retried here.
          if (error?.code === 'DISCONNECTED') return;
          const wait = RETRY_MS[Math.min(failures.current, RETRY_MS.length - 1)];
          failures.current += 1;
          timer = setTimeout(() => setWatchRetry((n) => n + 1), wait);
        },
      },
    );
    return () => {
      alive = false;
      clearTimeout(timer);
      unsubscribe();
    };
    // `update` only closes over setSlot, which is stable: not a dependency.
  }, [bridge, profileId, epoch, watchRetry]);

  useEffect(() => {
    if (profileId === undefined) return;
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    update(profileId, (s) => ({ ...s, state: { ...s.state, alerts: forgetActive(s.state.alerts) } }));
    const unsubscribe = bridge.subscribe(
      'metrics.alerts',
      { profileId },
      {
        onEvents: (alerts: Alert[]) => {
          if (!alive) return;
          update(profileId, (s) => ({ ...s, state: { ...s.state, alerts: foldAlerts(s.state.alerts, alerts) } }));
        },
        onEnd: (error) => {
          if (!alive || error?.code === 'DISCONNECTED') return;
          timer = setTimeout(() => setAlertsRetry((n) => n + 1), RETRY_MS.at(-1));
        },
      },
    );
    return () => {
      alive = false;
      clearTimeout(timer);
      unsubscribe();
    };
  }, [bridge, profileId, epoch, alertsRetry]);

  if (slot.profileId !== profileId) return { state: EMPTY_METRICS, error: undefined, live: false };
  return slot;
}
