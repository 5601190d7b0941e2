import { toAppError } from '../../bridge/toAppError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ProgressBar } from '../../components/ProgressBar';
import { Stat } from '../../components/Stat';
import { formatFraction, formatSeconds } from '../../lib/format';
import { CancelJob } from './CancelJob';
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
  const fraction = fractionOf(v);
  const elapsed = running ? (p?.elapsedMs ?? 0) / 1000 : (v.report?.seconds ?? (p?.elapsedMs ?? 0) / 1000);
  const s = v.started;
  const timed = v.results.filter((r) => r.skipped === undefined).length;
  const skipped = v.results.length - timed;
  return (
    <section className={`panel trial-status${v.outcome ? ` is-${v.outcome === 'done' ? 'ok' : v.outcome}` : ''}`} aria-label="Trial status">
      <div className="trial-status-head">
        <strong className={`trial-state is-${v.outcome ?? 'running'}`} data-testid="aud-state">
          {v.outcome ?? 'running'}
        </strong>
        <span className="trial-headline" data-testid="aud-headline">
          {headline(run, v)}
        </span>
        {running && (
          <CancelJob call="audience.cancel" jobId={run.jobId} title="Stop the trial; finished strategies are reported, scratch keys removed" testId="aud-cancel" />
        )}
      </div>
      {v.error !== undefined && <ErrorAlert error={toAppError(v.error)} title="The trial failed:" />}
      {v.outcome !== 'failed' && (
        <>
          <ProgressBar
            fraction={fraction}
            done={!running}
            label="Trial progress"
            valueText={p === undefined ? 'starting' : stepText(p)}
            testId="aud-progress"
            figure={formatFraction(fraction)}
          />
          <dl className="stat-grid">
            {running ? (
              <>
                <Stat label="Strategy" value={p?.strategy ?? '—'} sub={p === undefined || s === undefined ? undefined : `${s.strategies.indexOf(p.strategy) + 1} of ${s.strategies.length}`} testId="aud-step-strategy" />
                <Stat label="Phase · run" value={p === undefined ? '—' : `${p.phase === 'warmup' ? 'warm-up' : 'timed'} ${p.run}/${p.runs}`} testId="aud-step" />
              </>
            ) : (
              <>
                <Stat label="Strategies" value={`${timed} timed`} sub={`${skipped} skipped`} testId="aud-step-strategy" />
                <Stat label="Phase · run" value={v.outcome === 'done' ? 'finished' : 'stopped'} testId="aud-step" />
              </>
            )}
            <Stat label="Runs per strategy" value={s === undefined ? '—' : `${s.warmup} + ${s.trials}`} sub="warm-up + timed (K)" />
            <Stat label="Elapsed" value={formatSeconds(elapsed)} sub={running ? undefined : 'warm-up and cleanup included'} />
          </dl>
        </>
      )}
    </section>
  );
}
