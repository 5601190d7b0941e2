import './charts.css';
import type { ReactNode } from 'react';

interface Props {
  title: string;
  /** A short line after the title: the unit, what is measured. */
  note?: ReactNode;
  /** Controls at the right of the title (a type picker, a toggle). */
  actions?: ReactNode;
  testId: string;
  className?: string;
  children: ReactNode;
}

/** One chart panel (the Sampling page, both trials pages): a titled figure. */
export function ChartFrame({ title, note, actions, testId, className, children }: Props) {
  return (
    <figure className={`panel chart chart-frame ${className ?? ''}`} data-testid={testId} aria-label={title}>
      <figcaption className="chart-head">
        <span className="chart-title">{title}</span>
        {note !== undefined && <span className="muted chart-note">{note}</span>}
        {actions !== undefined && <span className="chart-actions">{actions}</span>}
      </figcaption>
      {children}
    </figure>
  );
}

/** What stands where a chart goes while the charting code loads. */
export function ChartLoading() {
  return <div className="panel chart chart-loading">Loading charts…</div>;
}
