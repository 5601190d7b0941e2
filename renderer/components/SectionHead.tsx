import type { ReactNode } from 'react';

interface Props {
  title: string;
  /** A short line after the title: what the section holds. */
  note: ReactNode;
  /** Controls at the right (a toggle, export buttons). */
  children?: ReactNode;
}

/** The head of a section of a job page (results, report, kept runs): title, note and controls on one line. */
export function SectionHead({ title, note, children }: Props) {
  return (
    <header className="job-section-head">
      <h2>{title}</h2>
      <span className="muted">{note}</span>
      {children}
    </header>
  );
}
