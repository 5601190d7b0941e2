import { toAppError } from '../../bridge/toAppError';
import { CancelButton } from '../../components/CancelButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ProgressBar } from '../../components/ProgressBar';
import { Stat } from '../../components/Stat';
import { formatCount, formatFraction, formatSeconds } from '../../lib/format';
import { TRIALS } from './form';
import type { CurrentRun } from './pageSession';
import { fractionOf, stepLabel, type TrialView } from './trialView';

function headline(run: CurrentRun, v: TrialView): string {
  const where = v.started === undefined ? run.profileName : `${v.started.address} db${v.started.dbs.join(', ')}`;
  const what = `${TRIALS[run.trial].label} trial on ${where}`;
  const finished = v.variants.length;
  switch (v.outcome) {
    case undefined:
      return v.started === undefined ? `${what}: checking the server…` : `${what}: running`;
    case 'done':
      return `${what}: ${finished} variants in ${formatSeconds(v.report?.seconds ?? 0)}, scratch keys removed.`;
    case 'cancelled':
      return `${what}: cancelled after ${finished} variant${finished === 1 ? '' : 's'}; scratch keys removed.`;
    case 'failed':
      return `${what} failed.`;
  }
}

/** Where a run stands: state, the bar, the running step and its live rate; Cancel while it runs. */
export function TrialStatus({ run, view: v, errorBeside }: { run: CurrentRun; view: TrialView; errorBeside: boolean }) {
  const p = v.progress;
  const running = v.outcome === undefined;
  const fraction = fractionOf(v);
  const total = p?.total ?? v.started?.total;
  const done = p?.done ?? 0;
  const of = total === undefined ? '' : ` of ${formatCount(total)}`;
  const elapsed = running ? (p?.elapsedMs ?? 0) / 1000 : (v.report?.seconds ?? (p?.elapsedMs ?? 0) / 1000);

  return (
    <section className={`panel trial-status${v.outcome ? ` is-${v.outcome === 'done' ? 'ok' : v.outcome}` : ''}`} aria-label="Trial status">
      <div className="trial-status-head">
        <strong className={`trial-state is-${v.outcome ?? 'running'}`} data-testid="trials-state">
          {v.outcome ?? 'running'}
        </strong>
        <span className="trial-headline" data-testid="trials-headline">
          {headline(run, v)}
        </span>
        {/* No confirmation: a cancelled trial removes its scratch keys and reports the variants that finished. */}
        {running && (
          <CancelButton
            call="trials.cancel"
            jobId={run.jobId}
            title="Stop the trial; its scratch keys are removed and the finished variants reported"
            finishedNote="The trial had already finished."
            testId="trials-cancel"
            className="trial-cancel"
          />
        )}
      </div>
      {v.error !== undefined &&
        (errorBeside ? (
          <p className="hint-warn" data-testid="trials-refused">
            Refused before anything was written: the reason is beside the <span className="mono">{v.error.field}</span> input above.
          </p>
        ) : (
          <ErrorAlert error={toAppError(v.error)} title="The trial failed:" />
        ))}
      {v.outcome !== 'failed' && (
        <>
          <ProgressBar
            fraction={fraction}
            done={!running}
            label="Trial progress"
            valueText={`${formatCount(done)} commands${of}`}
            testId="trials-progress"
            figure={formatFraction(fraction)}
          />
          <dl className="stat-grid">
            <Stat label="Step" value={running ? (p === undefined ? '—' : stepLabel(p.step)) : v.outcome === 'done' ? 'finished' : 'stopped'} testId="trials-step" />
            <Stat label="Live rate" value={running && p !== undefined ? `${formatCount(p.opsPerSec)} ops/s` : '—'} sub={running ? 'of the running step' : 'no step running'} testId="trials-rate" />
            <Stat label="Commands" value={formatCount(done)} sub={of === '' ? undefined : `${of.trim()} in all`} />
            <Stat label="Elapsed" value={formatSeconds(elapsed)} sub={running ? undefined : 'checks and cleanup included'} />
          </dl>
        </>
      )}
    </section>
  );
}
