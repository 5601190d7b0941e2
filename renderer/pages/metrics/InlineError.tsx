import type { AppError } from '../../../app/errors';

/**
 * A secondary error (one panel's call failed). Looks like ErrorAlert but is a
 * status, not role="alert": the page keeps one alert, about the profile's node.
 */
export function InlineError({ error, title }: { error: AppError; title?: string }) {
  return (
    <div className="alert alert-error ov-inline-error" role="status">
      {title !== undefined && <strong>{title} </strong>}
      <span>{error.message}</span>
      <span className="alert-code">{error.code}</span>
    </div>
  );
}
