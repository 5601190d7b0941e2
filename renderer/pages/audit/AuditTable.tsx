import { atText, detailText, durationText, OUTCOME_BADGE, type AuditEntry } from './entries';

interface Props {
  entries: readonly AuditEntry[];
  /** What the table says when it has no row. */
  empty: string;
}

/**
 * Audit entries, newest first. Every field is whatever the server wrote (a user
 * name, an address, an error message that may quote a key), so all of it is
 * rendered as React text, never as markup.
 */
export function AuditTable({ entries, empty }: Props) {
  return (
    <table className="data-table audit-table" data-testid="audit-table">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">User</th>
          <th scope="col">Action</th>
          <th scope="col">Target</th>
          <th scope="col">Outcome</th>
          <th scope="col">Took</th>
          <th scope="col">Detail</th>
        </tr>
      </thead>
      <tbody>
        {entries.length === 0 ? (
          <tr>
            <td colSpan={7} className="empty" data-testid="audit-empty">
              {empty}
            </td>
          </tr>
        ) : (
          entries.map((e, i) => (
            // Entries have no id and two can be alike to the millisecond; the list is replaced whole.
            <tr key={`${i} ${e.at}`} data-testid="audit-row" data-action={e.action} data-outcome={e.outcome} data-target={e.target}>
              <td className="mono audit-at" title={e.at}>
                {atText(e.at)}
              </td>
              <td data-col="user">{e.user}</td>
              <td className="mono" data-col="action">
                {e.action}
              </td>
              <td className="mono" data-col="target">
                {e.target}
              </td>
              <td data-col="outcome">
                <span className={`badge ${OUTCOME_BADGE[e.outcome]}`}>{e.outcome}</span>
              </td>
              <td className="mono audit-took" data-col="took" title={e.durationMs === undefined ? undefined : 'From its start to its end'}>
                {durationText(e)}
              </td>
              <td className="audit-detail" data-col="detail">
                {detailText(e)}
              </td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
