import type { ReactNode } from 'react';
import type { JobOutcome } from '../lib/jobView';

/** How a job ended as the class a ProgressBar (and any panel) takes its colour from; '' while it runs. */
export function outcomeClass(outcome: JobOutcome | undefined): string {
  if (outcome === undefined) return '';
  return outcome === 'done' ? 'is-ok' : `is-${outcome}`;
}

/** A job's state as a pill: "running" (or `runningWord`) until its outcome. */
export function JobState({ outcome, runningWord = 'running', testId }: { outcome: JobOutcome | undefined; runningWord?: string; testId: string }) {
  return (
    <strong className={`job-state is-${outcome ?? 'running'}`} data-testid={testId}>
      {outcome ?? runningWord}
    </strong>
  );
}

interface Props {
  outcome: JobOutcome | undefined;
  /** The panel's accessible name, e.g. "Run status". */
  label: string;
  headline: string;
  /** Test ids `<prefix>-state` and `<prefix>-headline`. */
  testIdPrefix: string;
  /** Shown at the end of the head while the job runs. */
  cancel: ReactNode;
  /** What follows the head: the reason it failed, the bar, the figures. */
  children: ReactNode;
}

/** Where a job stands: its state, a one-line headline and Cancel while it runs, then the page's own figures. */
export function JobStatus({ outcome, label, headline, testIdPrefix, cancel, children }: Props) {
  const tone = outcomeClass(outcome);
  return (
    <section className={`panel job-status${tone === '' ? '' : ` ${tone}`}`} aria-label={label}>
      <div className="job-status-head">
        <JobState outcome={outcome} testId={`${testIdPrefix}-state`} />
        <span className="job-headline" data-testid={`${testIdPrefix}-headline`}>
          {headline}
        </span>
        {outcome === undefined && cancel}
      </div>
      {children}
    </section>
  );
}
