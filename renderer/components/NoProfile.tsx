import type { AppError } from '../../app/errors';
import { hrefOf } from '../lib/route';
import { ErrorAlert } from './ErrorAlert';

interface Props {
  loading: boolean;
  error: AppError | undefined;
  /** What a connection would give, e.g. "see its live overview". */
  purpose: string;
  testId: string;
}

/** A page that needs a connection profile, when there is none (yet). */
export function NoProfile({ loading, error, purpose, testId }: Props) {
  if (error !== undefined) return <ErrorAlert error={error} title="Could not list connections:" />;
  return (
    <section className="panel empty-state" data-testid={testId}>
      {loading ? (
        <p>Loading…</p>
      ) : (
        <>
          <h2>No connections yet</h2>
          <p>
            Add a Redis connection to {purpose}. <a href={hrefOf('connections')}>Go to Connections</a>
          </p>
        </>
      )}
    </section>
  );
}
