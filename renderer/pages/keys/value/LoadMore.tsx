import type { AppError } from '../../../../app/errors';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatCount } from '../../../lib/format';

interface Props {
  shown: number;
  total: number | undefined;
  /** What the elements are called: "fields", "items". */
  noun: string;
  more: boolean;
  loading: boolean;
  error: AppError | undefined;
  onMore(): void;
  /** A SCAN with MATCH counts what it found, not the whole: the total is the key's. */
  filtered?: boolean;
}

/** The foot of a paged view: how much is shown of how much, and the next page on demand. */
export function LoadMore({ shown, total, noun, more, loading, error, onMore, filtered }: Props) {
  return (
    <div className="kv-foot">
      <span className="muted" data-testid="kv-shown">
        {formatCount(shown)} {noun} shown
        {total !== undefined && ` ${filtered === true ? 'matching, of' : 'of'} ${formatCount(total)}`}
        {!more && !loading && shown > 0 && ' · all loaded'}
      </span>
      {more && (
        <button type="button" className="btn btn-small" disabled={loading} onClick={onMore} data-testid="kv-load-more">
          {loading ? 'Loading…' : 'Load more'}
        </button>
      )}
      {loading && !more && <span className="muted">Loading…</span>}
      <ErrorAlert error={error} title="Could not read:" />
    </div>
  );
}
