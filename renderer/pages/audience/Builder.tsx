import type { AppError } from '../../../app/errors';
import type { AudienceAttributes } from '../../../app/schemas/audience';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatCount } from '../../lib/format';
import { plural } from '../../lib/plural';
import { AttributeRow } from './AttributeRow';
import { setExclude, toggleValue, type AttributePick } from './expression';

interface Props {
  attributes: AudienceAttributes | undefined;
  loading: boolean;
  error: AppError | undefined;
  refresh(): void;
  picks: readonly AttributePick[];
  onPicks(picks: AttributePick[]): void;
}

const LAYOUTS = ['bitmap', 'set', 'zset'] as const;

/** The attributes and values found on the server, as chips that write the expression. */
export function Builder({ attributes: a, loading, error, refresh, picks, onPicks }: Props) {
  return (
    <div className="aud-builder" data-testid="aud-builder">
      <div className="aud-builder-head">
        <strong>Attributes</strong>
        {a !== undefined && (
          <span className="muted" data-testid="aud-discovery">
            {`${formatCount(a.attributes.length)} found by SCAN (${plural(a.scanned, 'key')}) · `}
            {a.days.count > 0 ? `activity ${a.days.first ?? '?'} → ${a.days.last ?? '?'} (${plural(a.days.count, 'day')})` : 'no activity keys'}
            {' · layouts: '}
            {LAYOUTS.map((l) => `${l} ${a.layouts[l] ? '✓' : '✗'}`).join(', ')}
          </span>
        )}
        <button type="button" className="btn btn-small aud-rescan" onClick={refresh} disabled={loading} data-testid="aud-rescan">
          {loading ? 'Scanning…' : 'Scan again'}
        </button>
      </div>
      <ErrorAlert error={error} title="Could not list the attributes:" />
      {a?.truncated && <p className="hint-warn">The SCAN stopped at its bound: some attributes or values may be missing.</p>}
      {a !== undefined && a.attributes.length === 0 ? (
        <p className="muted aud-empty" data-testid="aud-no-attributes">
          No attribute keys here. Load the demo dataset above, or type an expression for keys laid out as the templates say.
        </p>
      ) : (
        <ul className="aud-attrs">
          {a?.attributes.map((attr) => (
            <AttributeRow
              key={attr.name}
              attribute={attr}
              pick={picks.find((p) => p.name === attr.name)}
              onToggle={(value) => onPicks(toggleValue(picks, attr.name, value))}
              onExclude={(exclude) => onPicks(setExclude(picks, attr.name, exclude))}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
