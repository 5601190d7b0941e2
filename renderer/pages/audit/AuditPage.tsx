import { useMemo, useState } from 'react';
import { useCall } from '../../bridge/useCall';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Segmented } from '../../components/Segmented';
import { clock } from '../../lib/display';
import { formatCount } from '../../lib/format';
import { plural } from '../../lib/plural';
import { AuditTable } from './AuditTable';
import { filterEntries, OUTCOMES, outcomeCounts, type OutcomeChoice } from './entries';
import './audit.css';

/** The most the contract lets one call read: the file keeps the rest. */
const LIMIT = 1000;

/**
 * The audit log: who ran which risky operation against which server, and how it
 * ended. Read on open and on Refresh; the filters work on what was read.
 */
export function AuditPage() {
  const [readAt, setReadAt] = useState<number>();
  const res = useCall('audit.list', { limit: LIMIT }, { onData: () => setReadAt(Date.now()) });
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<OutcomeChoice>('all');
  const data = res.data;
  // The outcome buttons count what the text filter leaves, so each says what it would show.
  const matching = useMemo(() => filterEntries(data?.entries ?? [], text, 'all'), [data, text]);
  const shown = useMemo(() => filterEntries(matching, '', outcome), [matching, outcome]);
  const counts = useMemo(() => outcomeCounts(matching), [matching]);

  if (res.error?.code === 'FORBIDDEN') {
    return (
      <section className="panel empty-state error-state" data-testid="audit-forbidden">
        <h2>Ops only</h2>
        <p>The audit log names who ran what against which server, so only ops users can read it.</p>
        <ErrorAlert error={res.error} />
      </section>
    );
  }

  const total = data?.entries.length ?? 0;
  const outcomeOptions = [
    { value: 'all' as const, label: `All ${formatCount(matching.length)}` },
    ...OUTCOMES.map((o) => ({ value: o, label: `${o} ${formatCount(counts[o])}` })),
  ];
  const empty =
    data === undefined
      ? res.loading
        ? 'Loading…'
        : '—'
      : total === 0
        ? 'Nothing audited yet. Bulk loads, BGSAVE, AOF rewrites, CONFIG SET and REWRITE, MONITOR sessions, console writes, client kills and pauses, publishes, trials and refused attempts show up here.'
        : 'No entry matches the filter.';

  return (
    <div className="page audit-page">
      <div className="toolbar">
        <p className="page-intro">
          Who ran what against which server, and how it ended: bulk loads, BGSAVE and AOF rewrites, the save settings a load suspends, MONITOR sessions, trials,
          and what was refused for want of a role. One row per run, newest first.
        </p>
        <span className="muted audit-read-at">{readAt !== undefined && `Read at ${clock(readAt)}`}</span>
        <button type="button" className="btn" onClick={res.refresh} data-testid="audit-refresh">
          Refresh
        </button>
      </div>
      <ErrorAlert error={res.error} title="Could not read the audit log:" />
      <section className="panel" aria-label="Audit log">
        <div className="audit-filters">
          <input
            type="search"
            placeholder="Filter: user, action, target, detail…"
            aria-label="Filter the entries"
            value={text}
            onChange={(e) => setText(e.target.value)}
            data-testid="audit-filter"
          />
          <Segmented label="Outcome" options={outcomeOptions} value={outcome} onChange={setOutcome} testId="audit-outcome" />
          <span className="muted audit-count" data-testid="audit-count">
            {shown.length === total ? `${plural(total, 'entry', 'entries')}` : `${formatCount(shown.length)} of ${plural(total, 'entry', 'entries')}`}
            {total >= LIMIT && ` (the newest ${formatCount(LIMIT)}; older ones stay in the file)`}
          </span>
        </div>
        <AuditTable entries={shown} empty={empty} />
      </section>
    </div>
  );
}
