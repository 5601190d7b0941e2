import type { ReactNode } from 'react';
import type { CancelCall } from '../bridge/useCancel';
import { formatFraction } from '../lib/format';
import type { JobOutcome } from '../lib/jobView';
import { CancelButton } from './CancelButton';
import { AsOf, useLinkLost } from './LiveState';
import { ProgressBar } from './ProgressBar';

/** How a job ended as the class a ProgressBar (and any panel) takes its colour from; '' while it runs. */
export function outcomeClass(outcome: JobOutcome | undefined): string {
  if (outcome === undefined) return '';
  return outcome === 'done' ? 'is-ok' : `is-${outcome}`;
}

/**
 * A job's state as a pill: "running" (or `runningWord`) until its outcome. With the link
 * to the server lost, a running job's figures are the last heard: the pill says as of when.
 */
export function JobState({ outcome, runningWord = 'running', testId }: { outcome: JobOutcome | undefined; runningWord?: string; testId: string }) {
  const lost = useLinkLost();
  const stale = outcome === undefined && lost !== undefined;
  return (
    <strong className={`job-state is-${outcome ?? 'running'}${stale ? ' is-stale' : ''}`} data-testid={testId} data-stale={stale ? 'true' : undefined}>
      {outcome ?? runningWord}
      {stale && (
        <>
          {' · not live, '}
          <AsOf at={lost.asOf} />
        </>
      )}
    </strong>
  );
}

interface Props {
  outcome: JobOutcome | undefined;
  /** The panel's accessible name, e.g. "Run status". */
  label: string;
  headline: string;
  /** Test ids `<prefix>-state`, `-headline`, `-cancel` and `-progress`. */
  testIdPrefix: string;
  /** The Cancel button shown while the job runs. */
  cancel: { call: CancelCall; jobId: string; title: string; finishedNote: string };
  /** Why it failed (or was refused), under the head. */
  error: ReactNode;
  /** The bar: share done (undefined: not known yet), its accessible name and what a screen reader says for it. */
  progress: { fraction: number | undefined; label: string; valueText: string };
  /** The figures under the bar; like the bar, left out once the job failed. */
  children: ReactNode;
}

/** Where a job stands: its state, a one-line headline and Cancel while it runs; why it failed, or the bar and the page's figures. */
export function JobStatus({ outcome, label, headline, testIdPrefix, cancel, error, progress, children }: Props) {
  const tone = outcomeClass(outcome);
  return (
    <section className={`panel job-status${tone === '' ? '' : ` ${tone}`}`} aria-label={label}>
      <div className="job-status-head">
        <JobState outcome={outcome} testId={`${testIdPrefix}-state`} />
        <span className="job-headline" data-testid={`${testIdPrefix}-headline`}>
          {headline}
        </span>
        {outcome === undefined && <CancelButton {...cancel} testId={`${testIdPrefix}-cancel`} />}
      </div>
      {error}
      {outcome !== 'failed' && (
        <>
          <ProgressBar
            fraction={progress.fraction}
            done={outcome !== undefined}
            label={progress.label}
            valueText={progress.valueText}
            testId={`${testIdPrefix}-progress`}
            figure={formatFraction(progress.fraction)}
          />
          {children}
        </>
      )}
    </section>
  );
}
