import type { ReactNode } from 'react';

interface Props {
  /** 0..1; undefined while the total is unknown: the bar slides instead (unless `done`). */
  fraction: number | undefined;
  /** The accessible name, e.g. "Load progress". */
  label: string;
  /** What a screen reader says for the value, e.g. "42 %" or "1,200 records". */
  valueText: string;
  /** A finished job: a full bar, never sliding. */
  done?: boolean;
  small?: boolean;
  testId?: string;
  /** The figure beside the bar; the bar and the figure then share a row. */
  figure?: ReactNode;
}

/**
 * A job's progress bar. Its colour follows the outcome class of an ancestor
 * (`is-ok`, `is-failed`, `is-cancelled`), so a panel colours its bar by saying how it ended.
 */
export function ProgressBar({ fraction, label, valueText, done = false, small = false, testId, figure }: Props) {
  const pct = fraction === undefined ? undefined : Math.floor(fraction * 100);
  const bar = (
    <div
      className={`progress-bar${small ? ' progress-bar-small' : ''}${fraction === undefined && !done ? ' is-indeterminate' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-valuetext={valueText}
      data-testid={testId}
    >
      <div className="progress-fill" style={{ width: `${(fraction ?? (done ? 1 : 0)) * 100}%` }} />
    </div>
  );
  if (figure === undefined) return bar;
  return (
    <div className="progress-row">
      {bar}
      <span className="progress-figure">{figure}</span>
    </div>
  );
}
