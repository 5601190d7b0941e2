import type { AppError } from '../../../../app/errors';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { TextField } from '../../../components/TextField';
import { formatCount } from '../../../lib/format';
import type { PageOp } from './actionForm';

interface Props {
  op: PageOp;
  /** The dry run's exact count. */
  matched: number;
  /** The selection in one line (glob and filters). */
  selection: string;
  command: string;
  db: number;
  profileName: string;
  /** The whole DB is selected (or the server said so): the DB number must be typed back. */
  needsDb: boolean;
  confirm: string;
  onConfirm(typed: string): void;
  confirmError: string | undefined;
  starting: boolean;
  startError: AppError | undefined;
  onStart(): void;
  onBack(): void;
}

/** The button's words: "Delete 1,234 keys". */
function actLabel(op: PageOp, n: number): string {
  const keys = `${formatCount(n)} key${n === 1 ? '' : 's'}`;
  return op === 'delete' ? `Delete ${keys}` : op === 'expire' ? `Set TTL on ${keys}` : `Persist ${keys}`;
}

/**
 * The last step before a run writes: what it will do, where, to how many keys, and for a
 * selection of the whole DB the DB number typed back (as the Bulk load page asks before a flush).
 */
export function ConfirmRun(p: Props) {
  const typedOk = !p.needsDb || (p.confirm.trim() !== '' && p.confirm.trim() === String(p.db));
  const nothing = p.matched === 0;
  return (
    <section className="ka-confirm" aria-label="Confirm" data-testid="ka-confirm-step">
      <p className="ka-confirm-text">
        <strong>{actLabel(p.op, p.matched)}</strong> matching <span className="mono ka-pattern-inline">{p.selection}</span> in <strong>db{p.db}</strong> on{' '}
        <strong>{p.profileName}</strong>, with <span className="mono">{p.command}</span> each. The run matches again as it goes: a key that no longer fits
        (changed since the dry run) is left alone and counted as skipped.
      </p>
      <div className="ka-confirm-row">
        {p.needsDb && (
          <TextField
            label="Type the DB number to confirm"
            field="confirmDb"
            className="ka-confirm-db"
            value={p.confirm}
            onChange={p.onConfirm}
            error={p.confirmError}
            placeholder={String(p.db)}
            testId="ka-confirm-db"
            numeric
            hint={
              <>
                The selection is <strong>every key of db{p.db}</strong> on <strong>{p.profileName}</strong>.
              </>
            }
          />
        )}
        <div className="form-actions ka-confirm-actions">
          <button type="button" className="btn" onClick={p.onBack} data-testid="ka-back">
            Change
          </button>
          <button
            type="button"
            className={`btn ${p.op === 'delete' ? 'btn-danger' : 'btn-primary'}`}
            disabled={!typedOk || nothing || p.starting}
            aria-busy={p.starting}
            onClick={p.onStart}
            data-testid="ka-run"
          >
            {p.starting ? 'Starting…' : actLabel(p.op, p.matched)}
          </button>
          {nothing && <span className="hint">Nothing matched: nothing to do.</span>}
        </div>
      </div>
      <ErrorAlert error={p.startError} title="Could not start:" />
    </section>
  );
}
