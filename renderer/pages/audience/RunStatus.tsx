import { toAppError } from '../../bridge/toAppError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { JobStatus } from '../../components/JobStatus';
import { Stat } from '../../components/Stat';
import { formatSeconds } from '../../lib/format';
import { elapsedSeconds } from '../../lib/jobView';
import type { CurrentRun } from './pageSession';
import { fractionOf, stepText, type RunView } from './runView';

function headline(run: CurrentRun, v: RunView): string {
  const where = v.started === undefined ? run.profileName : `${v.started.address} db${v.started.db}`;
  const what = `Audience trial on ${where}`;
  const finished = v.results.filter((r) => r.skipped === undefined).length;
  switch (v.outcome) {
    case undefined:
      return v.started === undefined ? `${what}: checking the layout…` : `${what}: ${v.started.normalized}`;
    case 'done':
      return `${what}: ${finished} strateg${finished === 1 ? 'y' : 'ies'} timed in ${formatSeconds(v.report?.seconds ?? 0)}; scratch keys removed.`;
    case 'cancelled':
      return `${what}: cancelled after ${finished} strateg${finished === 1 ? 'y' : 'ies'}; scratch keys removed.`;
    case 'failed':
      return `${what} failed.`;
  }
}

/** Where a trial stands: state, the bar over every strategy's runs, the step; Cancel while it runs. */
export function RunStatus({ run, view: v }: { run: CurrentRun; view: RunView }) {
  const p = v.progress;
  const running = v.outcome === undefined;
  const s = v.started;
  const timed = v.results.filter((r) => r.skipped === undefined).length;
  const skipped = v.results.length - timed;
  return (
    <JobStatus
      outcome={v.outcome}
      label="Trial status"
      headline={headline(run, v)}
      testIdPrefix="aud"
      // No confirmation: a trial removes its scratch keys and reports the strategies that finished.
      cancel={{
        call: 'audience.cancel',
        jobId: run.jobId,
        title: 'Stop the trial; finished strategies are reported, scratch keys removed',
        finishedNote: 'It had already finished.',
      }}
      error={v.error !== undefined && <ErrorAlert error={toAppError(v.error)} title="The trial failed:" />}
      progress={{ fraction: fractionOf(v), label: 'Trial progress', valueText: p === undefined ? 'starting' : stepText(p) }}
    >
      <dl className="stat-grid job-step-stats">
        {running ? (
          <>
            <Stat
              label="Strategy"
              value={p?.strategy ?? '—'}
              sub={p === undefined || s === undefined ? undefined : `${s.strategies.indexOf(p.strategy) + 1} of ${s.strategies.length}`}
              testId="aud-step-strategy"
            />
            <Stat label="Phase · run" value={p === undefined ? '—' : `${p.phase === 'warmup' ? 'warm-up' : 'timed'} ${p.run}/${p.runs}`} testId="aud-step" />
          </>
        ) : (
          <>
            <Stat label="Strategies" value={`${timed} timed`} sub={`${skipped} skipped`} testId="aud-step-strategy" />
            <Stat label="Phase · run" value={v.outcome === 'done' ? 'finished' : 'stopped'} testId="aud-step" />
          </>
        )}
        <Stat label="Runs per strategy" value={s === undefined ? '—' : `${s.warmup} + ${s.trials}`} sub="warm-up + timed (K)" />
        <Stat label="Elapsed" value={formatSeconds(elapsedSeconds(v))} sub={running ? undefined : 'warm-up and cleanup included'} />
      </dl>
    </JobStatus>
  );
}
