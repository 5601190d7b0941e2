import { toAppError } from '../../bridge/toAppError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { JobStatus } from '../../components/JobStatus';
import { Stat } from '../../components/Stat';
import { formatCount, formatSeconds } from '../../lib/format';
import { plural } from '../../lib/plural';
import { elapsedSeconds } from '../../lib/jobView';
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

  return (
    <JobStatus
      outcome={v.outcome}
      label="Trial status"
      headline={headline(run, v)}
      testIdPrefix="trials"
      // No confirmation: a cancelled trial removes its scratch keys and reports the variants that finished.
      cancel={{
        call: 'trials.cancel',
        jobId: run.jobId,
        title: 'Stop the trial; its scratch keys are removed and the finished variants reported',
        finishedNote: 'The trial had already finished.',
      }}
      error={
        v.error !== undefined &&
        (errorBeside ? (
          <p className="hint-warn" data-testid="trials-refused">
            Refused before anything was written: the reason is shown above, beside the setting it concerns.
          </p>
        ) : (
          <ErrorAlert error={toAppError(v.error)} title="The trial failed:" />
        ))
      }
      progress={{
        fraction,
        label: 'Trial progress',
        valueText: total === undefined ? plural(done, 'command') : `${formatCount(done)} of ${plural(total, 'command')}`,
      }}
    >
      <dl className="stat-grid job-step-stats">
        <Stat label="Step" value={running ? (p === undefined ? '—' : stepLabel(p.step)) : v.outcome === 'done' ? 'finished' : 'stopped'} testId="trials-step" />
        <Stat
          label="Live rate"
          value={running && p !== undefined ? `${formatCount(p.opsPerSec)} ops/s` : '—'}
          sub={running ? 'of the running step' : 'no step running'}
          testId="trials-rate"
        />
        <Stat label="Commands" value={formatCount(done)} sub={of === '' ? undefined : `${of.trim()} in all`} />
        <Stat label="Elapsed" value={formatSeconds(elapsedSeconds(v))} sub={running ? undefined : 'checks and cleanup included'} />
      </dl>
    </JobStatus>
  );
}
