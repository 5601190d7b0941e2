import type { AppError } from '../../app/errors';
import { besideField } from '../lib/formInput';

/**
 * An error the user should read: the server's sentence, with its code for support. The
 * contract field it may name ("overwrite", "draft.port") is no word of the page: it is
 * left out of what is shown (pages that show an error beside its input do that instead).
 */
export function ErrorAlert({ error, title }: { error: AppError | undefined; title?: string }) {
  if (error === undefined) return null;
  return (
    <div className="alert alert-error" role="alert">
      {title !== undefined && <strong>{title} </strong>}
      <span>{besideField(error.message, error.field, false)}</span>
      <span className="alert-code">{error.code}</span>
    </div>
  );
}
