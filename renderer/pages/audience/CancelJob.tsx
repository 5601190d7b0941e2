import { useCancel, type CancelCall } from '../../bridge/useCancel';
import { ErrorAlert } from '../../components/ErrorAlert';

interface Props {
  call: Extract<CancelCall, 'audience.cancel' | 'audience.demoCancel'>;
  jobId: string;
  /** What stopping does, for the button's tooltip. */
  title: string;
  testId: string;
}

/** Cancel needs no confirmation here: a trial removes its scratch keys and reports what finished; a demo load keeps what it wrote. */
export function CancelJob({ call, jobId, title, testId }: Props) {
  const { cancel, busy, note, error } = useCancel(call, jobId, 'It had already finished.');
  return (
    <span className="trial-cancel">
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
