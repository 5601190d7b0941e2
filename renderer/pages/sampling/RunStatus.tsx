import { toAppError } from '../../bridge/toAppError';
import { useCancel } from '../../bridge/useCancel';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ProgressBar } from '../../components/ProgressBar';
import { Stat } from '../../components/Stat';
import { formatCount, formatEta, formatFraction, formatSeconds } from '../../lib/format';
import type { KeptRun } from './runStore';
import { etaOf, examinedOf, fractionOf, targetOf, type RunView } from './runView';

const STATE_WORD = { done: 'done', cancelled: 'cancelled', failed: 'failed' } as const;

function headline(run: KeptRun, v: RunView): string {
  const what = `${run.method === 'census' ? 'Census' : 'Sample'} of db${v.started?.db ?? run.db} on ${run.profileName}`;
  const examined = formatCount(examinedOf(v));
  switch (v.outcome) {
    case undefined:
      return v.started === undefined ? `${what}: starting…` : `${what}: running`;
    case 'done':
      return `${what}: ${examined} keys examined in ${formatSeconds(v.report?.seconds ?? 0)}.`;
    case 'cancelled':
      return `${what}: cancelled after ${examined} keys. The figures below are what it examined.`;
    case 'failed':
      return `${what} failed.`;
  }
}

/** Where a run stands: its state, the bar with examined / target, rate, elapsed and ETA; Cancel while it runs. */
export function RunStatus({ run, view: v }: { run: KeptRun; view: RunView }) {
  const p = v.progress;
  const target = targetOf(v);
  const fraction = fractionOf(v);
  const running = v.outcome === undefined;
  const examined = examinedOf(v);
  const elapsed = running ? (p?.elapsedMs ?? 0) / 1000 : (v.report?.seconds ?? (p?.elapsedMs ?? 0) / 1000);
  // While it runs, the server's current rate; once it ended, the average over the whole run.
  const rate = running || elapsed <= 0 ? (p?.keysPerSec ?? 0) : examined / elapsed;
  const of = target === undefined ? '' : ` of ${formatCount(target)}${run.method === 'census' ? ' (DBSIZE)' : ''}`;

  return (
    <section className={`panel smp-status${v.outcome ? ` is-${v.outcome === 'done' ? 'ok' : v.outcome}` : ''}`} aria-label="Run status">
      <div className="smp-status-head">
        <strong className={`smp-state is-${v.outcome ?? 'running'}`} data-testid="sampling-state">
          {v.outcome === undefined ? 'running' : STATE_WORD[v.outcome]}
        </strong>
        <span className="smp-headline" data-testid="sampling-headline">
          {headline(run, v)}
        </span>
        {running && <CancelButton jobId={run.jobId} />}
      </div>
      {v.outcome === 'failed' && v.error !== undefined && (
        <ErrorAlert error={toAppError(v.error)} title="The run failed:" />
      )}
      {v.outcome !== 'failed' && (
        <>
          <ProgressBar
            fraction={fraction}
            done={!running}
            label="Sampling progress"
            valueText={`${formatCount(examined)} keys${of}`}
            testId="sampling-progress"
            figure={formatFraction(fraction)}
          />
          <dl className="stat-grid">
            <Stat label="Examined" value={formatCount(examined)} sub={of === '' ? undefined : of.trim()} testId="sampling-examined" />
            <Stat label="Rate" value={`${formatCount(rate)} keys/s`} sub={running ? undefined : 'average'} />
            <Stat label="Elapsed" value={formatSeconds(elapsed)} />
            <Stat label="ETA" value={running ? formatEta(etaOf(p)) : '—'} />
          </dl>
        </>
      )}
    </section>
  );
}

/** Cancelling needs no confirmation: nothing is written, and the run still reports what it examined. */
function CancelButton({ jobId }: { jobId: string }) {
  const { cancel, busy, note, error } = useCancel('sampling.cancel', jobId, 'The run had already finished.');

  return (
    <span className="smp-cancel">
      {note !== undefined && <span className="muted">{note}</span>}
      <button
        type="button"
        className="btn btn-small btn-danger-ghost"
        onClick={cancel}
        disabled={busy || note !== undefined}
        title="Stop the run; it reports what it examined so far"
        data-testid="sampling-cancel"
      >
        Cancel
      </button>
      <ErrorAlert error={error} title="Could not cancel:" />
    </span>
  );
}
