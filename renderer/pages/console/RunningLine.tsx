import { useEffect, useState } from 'react';
import type { AppError } from '../../../app/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatSeconds } from '../../lib/format';

/** How often the elapsed time is drawn again while a command runs. */
const TICK_MS = 200;

interface Props {
  startedAt: number;
  cancelling: boolean;
  cancelError: AppError | undefined;
  onCancel(): void;
}

/** A command waiting for its reply (BLPOP, a slow script): the time so far and Cancel. */
export function RunningLine({ startedAt, cancelling, cancelError, onCancel }: Props) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const t = setInterval(() => setNow(performance.now()), TICK_MS);
    return () => clearInterval(t);
  }, []);
  const seconds = Math.max(0, (now - startedAt) / 1000);
  return (
    <div className="cn-running" role="status" data-testid="console-running">
      <span className="cn-spinner" aria-hidden="true" />
      <span>{cancelling ? 'Cancelling…' : 'Running…'}</span>
      <span className="muted mono" data-testid="console-elapsed">
        {formatSeconds(seconds)}
      </span>
      <button type="button" className="btn btn-small btn-danger-ghost" onClick={onCancel} disabled={cancelling} data-testid="console-cancel">
        Cancel
      </button>
      <ErrorAlert error={cancelError} title="Could not cancel:" />
    </div>
  );
}
