import { memo } from 'react';
import { CLIENT_MARKS, type ClientMark, type ClientsList } from '../../../app/schemas/clients';
import { formatCount } from '../../lib/format';
import { MARK_WORDS } from './marks';

interface Props {
  list: ClientsList;
  /** The highlight the table is filtered by, if any. */
  mark: ClientMark | undefined;
  onMark(mark: ClientMark | undefined): void;
}

/** What each highlight means, how many clients have it over every node; a click shows only those. */
export const Legend = memo(function Legend({ list, mark, onMark }: Props) {
  const counts = Object.fromEntries(CLIENT_MARKS.map((m) => [m, list.nodes.reduce((s, n) => s + (n.totals.marks[m] ?? 0), 0)])) as Record<ClientMark, number>;
  return (
    <ul className="cl-legend" aria-label="Highlights" data-testid="clients-legend">
      {CLIENT_MARKS.map((m) => (
        <li key={m}>
          <button
            type="button"
            className="cl-legend-item"
            aria-pressed={mark === m}
            onClick={() => onMark(mark === m ? undefined : m)}
            title={`${MARK_WORDS[m].rule(list)}. Click to show only these.`}
            data-testid={`clients-legend-${m}`}
            data-count={counts[m]}
          >
            <span className="cl-chip" data-mark={m}>
              {MARK_WORDS[m].chip}
            </span>
            <span className="cl-legend-text">
              <strong>{MARK_WORDS[m].title}</strong> <span className="muted">{MARK_WORDS[m].rule(list)}</span>
            </span>
            <span className="cl-legend-count num">{formatCount(counts[m])}</span>
          </button>
        </li>
      ))}
    </ul>
  );
});
