import { useState } from 'react';
import type { AppError } from '../../../app/errors';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatBytes, formatCount, formatDuration } from '../../lib/format';
import type { KeptJob } from './jobStore';
import { isTerminal, outcomeOf, type LoadView } from './loadView';
import { etaOf, formatEta, formatFraction, fractionOf } from './progress';

function Figure({ label, value, sub, testId }: { label: string; value: string; sub?: string; testId?: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>
        <span className="stat-value" data-testid={testId}>
          {value}
        </span>
        {sub !== undefined && <span className="stat-sub">{sub}</span>}
      </dd>
    </div>
  );
}

/** The bar, the phase and the running figures; Cancel while the load runs. */
export function ProgressPanel({ job, view }: { job: KeptJob; view: LoadView }) {
  const p = view.progress;
  const outcome = outcomeOf(view);
  const done = isTerminal(view);
  const fraction = outcome === 'ok' ? 1 : fractionOf(p);
  const pct = fraction === undefined ? undefined : Math.floor(fraction * 100);
  const elapsed = p !== undefined && view.startedAt !== undefined ? (p.at - view.startedAt) / 1000 : undefined;
  const phaseMessage = view.phase === undefined ? 'Waiting for the server…' : view.phases[view.phase]?.message;

  return (
    <section className={`panel bulk-progress-panel${outcome ? ` is-${outcome}` : ''}`} aria-label="Load status">
      <div className="bulk-progress-head">
        <span className="bulk-phase-now">
          <span className="bulk-label">Phase</span>{' '}
          <strong className={`bulk-phase-badge is-${outcome ?? 'running'}`} data-testid="bulk-phase">
            {view.phase ?? 'starting'}
          </strong>
          {phaseMessage !== undefined && <span className="bulk-phase-text">{phaseMessage}</span>}
        </span>
        {!done && <CancelButton job={job} />}
      </div>
      <div className="bulk-bar-row">
        <div
          className={`bulk-bar${pct === undefined && !done ? ' is-indeterminate' : ''}`}
          role="progressbar"
          aria-label="Load progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-valuetext={pct === undefined ? `${formatCount(p?.records ?? 0)} records` : `${pct} %`}
          data-testid="bulk-progress"
        >
          <div className="bulk-bar-fill" style={{ width: `${(fraction ?? (done ? 1 : 0)) * 100}%` }} />
        </div>
        <span className="bulk-bar-pct">
          {fraction === undefined ? `${formatCount(p?.records ?? 0)} records` : formatFraction(fraction)}
        </span>
      </div>
      {!done && (
        <dl className="stat-grid bulk-figures">
          <Figure
            label="Records"
            value={formatCount(p?.records ?? 0)}
            sub={p?.bytesTotal !== undefined ? `${formatBytes(p.bytesRead)} of ${formatBytes(p.bytesTotal)}` : undefined}
            testId="bulk-records"
          />
          <Figure label="Commands" value={formatCount(p?.commands ?? 0)} sub={`${formatCount(p?.replies ?? 0)} replies`} />
          <Figure label="Rate" value={`${formatCount(p?.opsPerSec ?? 0)} ops/s`} />
          <Figure
            label="ETA"
            value={formatEta(etaOf(p, view.phases.loading?.at))}
            sub={elapsed === undefined ? undefined : `${formatDuration(elapsed)} elapsed`}
          />
          <Figure label="Errors" value={formatCount(p?.errors ?? 0)} testId="bulk-errors" />
          <Figure label="Used memory" value={p?.usedMemory === undefined ? '—' : formatBytes(p.usedMemory)} />
        </dl>
      )}
    </section>
  );
}

function CancelButton({ job }: { job: KeptJob }) {
  const bridge = useBridge();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<AppError>();

  async function cancel() {
    setBusy(true);
    setError(undefined);
    try {
      const { cancelled } = await bridge.invoke('bulk.cancel', { jobId: job.jobId });
      // The report follows on the stream; this only says when there was nothing left to stop.
      setNote(cancelled ? 'Cancelling…' : 'The load had already finished.');
      setConfirming(false);
    } catch (e) {
      setError(toAppError(e));
    } finally {
      setBusy(false);
    }
  }

  const consequence =
    job.mode === 'swap'
      ? 'The staging DB is discarded; the live DB is untouched.'
      : `Commands already written stay in db${job.targetDb}.`;

  return (
    <div className="bulk-cancel">
      {note !== undefined && <span className="muted">{note}</span>}
      {confirming ? (
        <span className="confirm" role="group" aria-label="Confirm cancelling the load">
          <span>Cancel this load? {consequence}</span>
          <button
            type="button"
            className="btn btn-small btn-danger"
            onClick={cancel}
            disabled={busy}
            data-testid="bulk-cancel-confirm"
          >
            Cancel load
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(false)}>
            Keep loading
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="btn btn-small btn-danger-ghost"
          onClick={() => setConfirming(true)}
          disabled={note === 'Cancelling…'}
          data-testid="bulk-cancel"
        >
          Cancel…
        </button>
      )}
      <ErrorAlert error={error} title="Could not cancel:" />
    </div>
  );
}
