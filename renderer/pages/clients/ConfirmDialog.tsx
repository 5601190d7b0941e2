import { useId, type ReactNode } from 'react';
import type { AppError } from '../../../app/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useModalDialog } from '../../lib/useModalDialog';

interface Props {
  title: string;
  children: ReactNode;
  /** The button that acts, saying what it does ("Kill client 42"). */
  confirmLabel: string;
  busy: boolean;
  /** False while the dialog still waits for an extra, explicit consent (a box to tick): the act stays disabled. */
  ready?: boolean;
  error: AppError | undefined;
  onConfirm(): void;
  onClose(): void;
  testId: string;
}

/**
 * A modal that asks before an irreversible act on a server (a kill, a pause). Escape and
 * Cancel close it, except while the act runs; focus goes back to the button that opened it.
 */
export function ConfirmDialog({ title, children, confirmLabel, busy, ready = true, error, onConfirm, onClose, testId }: Props) {
  const titleId = useId();
  const close = () => {
    if (!busy) onClose();
  };
  const modal = useModalDialog(close);
  return (
    <dialog {...modal} className="cl-dialog" aria-labelledby={titleId} data-testid={testId}>
      <h2 id={titleId}>{title}</h2>
      <div className="cl-dialog-body">{children}</div>
      <ErrorAlert error={error} title="Refused:" />
      <div className="form-actions cl-dialog-actions">
        <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={busy || !ready} aria-busy={busy} data-testid={`${testId}-confirm`}>
          {busy ? 'Working…' : confirmLabel}
        </button>
        <button type="button" className="btn btn-ghost" onClick={close} disabled={busy} data-testid={`${testId}-cancel`}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
