import { useState } from 'react';
import { useCancel } from '../../bridge/useCancel';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatBytes, formatCount, formatDuration, formatEta, formatFraction } from '../../lib/format';
import { plural } from '../../lib/plural';
import type { KeptJob } from './jobStore';
import { isTerminal, outcomeOf, type LoadView } from './loadView';
import { etaOf, fractionOf } from './progress';
import { ProgressBar } from '../../components/ProgressBar';
import { Stat } from '../../components/Stat';
import { ReplicaLagList } from './ReplicaLagList';

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
      <ProgressBar
        fraction={fraction}
        done={done}
        label="Load progress"
        valueText={pct === undefined ? `${plural(p?.records ?? 0, 'record')}` : `${pct} %`}
        testId="bulk-progress"
        figure={fraction === undefined ? `${plural(p?.records ?? 0, 'record')}` : formatFraction(fraction)}
      />
      {!done && (
        <dl className="stat-grid bulk-figures">
          <Stat
            label="Records"
            value={formatCount(p?.records ?? 0)}
            sub={p?.bytesTotal !== undefined ? `${formatBytes(p.bytesRead)} of ${formatBytes(p.bytesTotal)}` : undefined}
            testId="bulk-records"
          />
          <Stat label="Commands" value={formatCount(p?.commands ?? 0)} sub={`${formatCount(p?.replies ?? 0)} replies`} />
          <Stat label="Rate" value={`${formatCount(p?.recordsPerSec ?? 0)} rows/s`} />
          <Stat
            label="ETA"
            value={formatEta(etaOf(p, view.phases.loading?.at))}
            sub={elapsed === undefined ? undefined : `${formatDuration(elapsed)} elapsed`}
          />
          <Stat label="Errors" value={formatCount(p?.errors ?? 0)} testId="bulk-errors" />
          <Stat label="Used memory" value={p?.usedMemory === undefined ? '—' : formatBytes(p.usedMemory)} />
        </dl>
      )}
      {!done && <ReplicaLagList p={p} />}
    </section>
  );
}

function CancelButton({ job }: { job: KeptJob }) {
  const [confirming, setConfirming] = useState(false);
  const { cancel: call, busy, note, error } = useCancel('bulk.cancel', job.jobId, 'The load had already finished.');

  async function cancel() {
    if (await call()) setConfirming(false);
  }

  const consequence =
    job.mode === 'swap'
      ? 'The staging DB is discarded (left as it is if another client wrote into it: the report says so); the load never writes the live DB.'
      : `Commands already written stay in db${job.targetDb}.`;

  return (
    <div className="bulk-cancel">
      {note !== undefined && <span className="muted">{note}</span>}
      {confirming ? (
        <span className="confirm" role="group" aria-label="Confirm cancelling the load">
          <span>Cancel this load? {consequence}</span>
          <button type="button" className="btn btn-small btn-danger" onClick={cancel} disabled={busy} data-testid="bulk-cancel-confirm">
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
