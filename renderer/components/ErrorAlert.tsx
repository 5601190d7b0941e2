import type { AppError } from '../../app/errors';

/** An error the user should read: the server's sentence, with its code for support. */
export function ErrorAlert({ error, title }: { error: AppError | undefined; title?: string }) {
  if (error === undefined) return null;
  return (
    <div className="alert alert-error" role="alert">
      {title !== undefined && <strong>{title} </strong>}
      <span>{error.message}</span>
      {error.field !== undefined && <span className="alert-field"> (field: {error.field})</span>}
      <span className="alert-code">{error.code}</span>
    </div>
  );
}
