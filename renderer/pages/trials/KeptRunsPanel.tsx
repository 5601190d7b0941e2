import { SectionHead } from '../../components/SectionHead';
import { ShowButton } from '../../components/ShowButton';
import { TRIALS } from './form';
import { comparisonGroups, type ComparisonGroup } from './keptRuns';
import { keptRuns, useKeptRuns } from './pageSession';

interface Props {
  /** The kept run whose results are shown above, if one is. */
  shown: string | undefined;
  onShow(jobId: string | undefined): void;
}

/** Runs kept for this page session, side by side per trial: a row per run, a column per variant. */
export function KeptRunsPanel({ shown, onShow }: Props) {
  const groups = comparisonGroups(useKeptRuns());
  return (
    <section className="job-section" aria-label="Kept runs" data-testid="trials-kept">
      <SectionHead title="Kept runs" note="every finished run of this page session, to compare; kept in this tab’s memory only" />
      {groups.length === 0 ? (
        <p className="panel muted job-kept-empty">Runs appear here when they finish: change a parameter or the proxy delay and run again to compare.</p>
      ) : (
        groups.map((g) => <GroupTable key={g.trial} group={g} shown={shown} onShow={onShow} />)
      )}
    </section>
  );
}

function GroupTable({ group: g, shown, onShow }: { group: ComparisonGroup } & Props) {
  return (
    <div className="panel job-table-panel">
      <table className="data-table job-table job-kept-table" data-testid={`trials-kept-${g.trial}`}>
        <caption>{TRIALS[g.trial].label}</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Server</th>
            <th scope="col">Parameters · proxy</th>
            {g.variants.map((v) => (
              <th key={v.variant} scope="col" className="num">
                {v.name}
              </th>
            ))}
            <th scope="col" aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {g.rows.map((r) => (
            <tr key={r.jobId} data-job-id={r.jobId} className={shown === r.jobId ? 'is-shown' : undefined}>
              <th scope="row">
                {r.number}
                {r.outcome === 'cancelled' && <span className="tag tag-warn trial-tag">cancelled</span>}
              </th>
              <td>
                {r.profileName}
                <span className="job-cell-sub mono">{r.address}</span>
              </td>
              <td data-col="params">
                {r.params}
                <span className="job-cell-sub" data-col="proxy">
                  {r.proxy}
                </span>
              </td>
              {g.variants.map((v) => {
                const cell = r.cells[v.variant];
                return (
                  <td key={v.variant} className="num" data-col={v.variant}>
                    {cell === undefined ? '—' : cell.rate}
                    {cell?.sub !== undefined && <span className="job-cell-sub">{cell.sub}</span>}
                  </td>
                );
              })}
              <td className="job-kept-actions">
                <ShowButton id={r.jobId} shown={shown} onShow={onShow} testId="trials-kept-show" />
                <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => keptRuns.remove(r.jobId)} data-testid="trials-kept-remove">
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
