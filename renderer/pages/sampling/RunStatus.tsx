import { toAppError } from '../../bridge/toAppError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { JobStatus } from '../../components/JobStatus';
import { Stat } from '../../components/Stat';
import { formatCount, formatEta, formatSeconds } from '../../lib/format';
import { elapsedSeconds } from '../../lib/jobView';
import type { KeptRun } from './runStore';
import { etaOf, examinedOf, fractionOf, targetOf, type RunView } from './runView';

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
  const elapsed = elapsedSeconds(v);
  // While it runs, the server's current rate; once it ended, the average over the whole run.
  const rate = running || elapsed <= 0 ? (p?.keysPerSec ?? 0) : examined / elapsed;
  const of = target === undefined ? '' : ` of ${formatCount(target)}${run.method === 'census' ? ' (DBSIZE)' : ''}`;

  return (
    <JobStatus
      outcome={v.outcome}
      label="Run status"
      headline={headline(run, v)}
      testIdPrefix="sampling"
      // No confirmation: nothing is written, and the run still reports what it examined.
      cancel={{
        call: 'sampling.cancel',
        jobId: run.jobId,
        title: 'Stop the run; it reports what it examined so far',
        finishedNote: 'The run had already finished.',
      }}
      error={v.outcome === 'failed' && v.error !== undefined && <ErrorAlert error={toAppError(v.error)} title="The run failed:" />}
      progress={{ fraction, label: 'Sampling progress', valueText: `${formatCount(examined)} keys${of}` }}
    >
      <dl className="stat-grid">
        <Stat label="Examined" value={formatCount(examined)} sub={of === '' ? undefined : of.trim()} testId="sampling-examined" />
        <Stat label="Rate" value={`${formatCount(rate)} keys/s`} sub={running ? undefined : 'average'} />
        <Stat label="Elapsed" value={formatSeconds(elapsed)} />
        <Stat label="ETA" value={running ? formatEta(etaOf(p)) : '—'} />
      </dl>
    </JobStatus>
  );
}
