import { useCancel, type CancelCall } from '../bridge/useCancel';
import { ErrorAlert } from './ErrorAlert';

interface Props {
  call: CancelCall;
  jobId: string;
  /** What stopping does, for the button's tooltip. */
  title: string;
  /** Said when the job had ended before the cancel reached it. */
  finishedNote: string;
  testId: string;
}

/** Cancel for a running job, with "Cancelling…" until its stream reports the end, and the error if the call fails. */
export function CancelButton({ call, jobId, title, finishedNote, testId }: Props) {
  const { cancel, busy, note, error } = useCancel(call, jobId, finishedNote);
  return (
    <span className="job-cancel">
      {note !== undefined && <span className="muted">{note}</span>}
      <button
        type="button"
        className="btn btn-small btn-danger-ghost"
        onClick={cancel}
        disabled={busy || note !== undefined}
        title={title}
        data-testid={testId}
      >
        Cancel
      </button>
      <ErrorAlert error={error} title="Could not cancel:" />
    </span>
  );
}
