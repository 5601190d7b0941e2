import type { AppError } from '../../../../app/errors';
import { ErrorAlert } from '../../../components/ErrorAlert';

/**
 * Why an edit was refused. A CONFLICT is the stale-view check doing its job: the key changed
 * since this view read it, so nothing was written; reloading shows what it holds now.
 */
export function EditError({ error, onReload }: { error: AppError | undefined; onReload(): void }) {
  if (error === undefined) return null;
  if (error.code !== 'CONFLICT') return <ErrorAlert error={error} title="Not saved:" />;
  return (
    <div className="alert alert-error kv-conflict" role="alert" data-testid="kv-conflict">
      <strong>Changed since you opened it.</strong>
      <span>Nothing was written: {error.message}</span>
      <button type="button" className="btn btn-small" onClick={onReload} data-testid="kv-reload">
        Reload
      </button>
    </div>
  );
}
