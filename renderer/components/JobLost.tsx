import type { AppError } from '../../app/errors';
import { ErrorAlert } from './ErrorAlert';

interface Props {
  error: AppError | undefined;
  /** E.g. "Cannot follow run sample_…:". */
  title: string;
  /** Why that may be, and what the page still has to show. */
  note: string;
}

/** A job the page can no longer follow: its stream failed before the job ended. */
export function JobLost({ error, title, note }: Props) {
  return (
    <div className="panel error-state">
      <ErrorAlert error={error} title={title} />
      <p className="muted">{note}</p>
    </div>
  );
}
