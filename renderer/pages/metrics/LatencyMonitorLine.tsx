import { useState } from 'react';
import type { AppError } from '../../../app/errors';
import { readOnlyDataText } from '../../../app/readOnlyData';
import { usePermission } from '../../auth/usePermission';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { useCall } from '../../bridge/useCall';
import { InlineError } from './InlineError';
import { endedLine, monitorLine } from './latencyMonitorText';

const REFRESH_MS = 10_000;
const MINUTES = [10, 30, 60] as const;
type Minutes = (typeof MINUTES)[number];

interface Profile {
  id: string;
  name: string;
  source: 'user' | 'config' | 'embedded';
  readOnlyData: boolean;
}

/**
 * Whether the node records latency events (latency-monitor-threshold), and for ops the means to
 * turn it on for a while: the core puts the previous value back at the end (metrics.latencyMonitorOn).
 */
export function LatencyMonitorLine({ profile, address, up }: { profile: Profile; address: string; up: boolean }) {
  const bridge = useBridge();
  const res = useCall('metrics.latencyMonitor', up ? { profileId: profile.id, address } : undefined, { intervalMs: REFRESH_MS });
  // CONFIG SET is an ops write: the contract keeps it to that role, and so does the panel.
  const may = usePermission('metrics.latencyMonitorOn');
  const [thresholdMs, setThresholdMs] = useState('10');
  const [minutes, setMinutes] = useState<Minutes>(10);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | undefined>(undefined);
  const status = res.data;
  const timedHere = status?.timed?.address === address;
  const timedElsewhere = status?.timed !== undefined && !timedHere;
  const threshold = Number(thresholdMs);
  const thresholdOk = Number.isInteger(threshold) && threshold >= 1 && threshold <= 60_000;

  const act = (call: Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    call.then(
      () => {
        setBusy(false);
        res.refresh();
      },
      (e: unknown) => {
        setBusy(false);
        setError(toAppError(e));
        res.refresh();
      },
    );
  };
  const ended = status === undefined ? undefined : endedLine(status, address);
  const showControls = up && status !== undefined && may.allowed && !profile.readOnlyData && status.thresholdMs !== undefined;

  return (
    <div className="ov-latency-monitor" data-testid="latency-monitor">
      <p className="ov-latency-line" data-testid="latency-monitor-line">
        {!up ? '—' : status === undefined ? (res.loading ? 'Reading latency-monitor-threshold…' : '—') : monitorLine(status, address)}
      </p>
      {ended !== undefined && (
        <p className="hint" data-testid="latency-monitor-ended">
          {ended}
        </p>
      )}
      {up && res.error !== undefined && <InlineError error={res.error} title="Cannot read latency-monitor-threshold:" />}
      {error !== undefined && <InlineError error={error} title="Latency monitoring:" />}
      {showControls && timedHere && (
        <div className="ov-actionbar">
          <button
            type="button"
            className="btn btn-small"
            data-testid="latency-monitor-off"
            disabled={busy}
            onClick={() => act(bridge.invoke('metrics.latencyMonitorOff', { profileId: profile.id }))}
          >
            Turn off now
          </button>
        </div>
      )}
      {showControls && timedElsewhere && status?.timed !== undefined && (
        <p className="hint">Turned on for a while on {status.timed.address}: one at a time per profile.</p>
      )}
      {showControls && status?.timed === undefined && (
        <div className="ov-actionbar">
          <label className="ov-target">
            <span className="muted">Over (ms)</span>
            <input
              type="number"
              className="ov-latency-ms"
              min={1}
              max={60_000}
              value={thresholdMs}
              onChange={(e) => setThresholdMs(e.target.value)}
              aria-label="Latency threshold in milliseconds"
              aria-invalid={!thresholdOk}
            />
          </label>
          <label className="ov-target">
            <span className="muted">For</span>
            <select value={minutes} onChange={(e) => setMinutes(Number(e.target.value) as Minutes)} aria-label="How long latency monitoring stays on">
              {MINUTES.map((m) => (
                <option key={m} value={m}>
                  {m} min
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="btn btn-small"
            data-testid="latency-monitor-on"
            disabled={busy || !thresholdOk}
            title={thresholdOk ? undefined : 'A whole number of milliseconds, 1 to 60000'}
            onClick={() => act(bridge.invoke('metrics.latencyMonitorOn', { profileId: profile.id, address, thresholdMs: threshold, minutes }))}
          >
            Turn on for a while
          </button>
        </div>
      )}
      {up && may.allowed && profile.readOnlyData && (
        <p className="hint">{readOnlyDataText(profile, { refused: 'latency monitoring cannot be turned on here', instead: 'turn it on for a while' })}</p>
      )}
    </div>
  );
}
