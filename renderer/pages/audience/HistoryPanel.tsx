import { useState } from 'react';
import type { AppError } from '../../../app/errors';
import { STRATEGY_NAMES, type AudienceReport } from '../../../app/schemas/audience';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SectionHead } from '../../components/SectionHead';
import { ShowButton } from '../../components/ShowButton';
import { historyRow, pickTwo } from './history';
import { PairTable } from './PairTable';

interface Props {
  reports: readonly AudienceReport[] | undefined;
  error: AppError | undefined;
  /** The saved run whose results are shown above, if one is. */
  shown: string | undefined;
  onShow(id: string | undefined): void;
}

/** Saved runs from the server, newest first: one row each, a p50 column per strategy; tick two to compare. */
export function HistoryPanel({ reports, error, shown, onShow }: Props) {
  const [picked, setPicked] = useState<string[]>([]);
  const list = reports ?? [];
  const pair = picked.map((id) => list.find((r) => r.id === id)).filter((r): r is AudienceReport => r !== undefined);
  return (
    <section className="job-section" aria-label="Saved runs" data-testid="aud-history">
      <SectionHead title="Saved runs" note="recent trials kept by the server; tick two to compare them" />
      <ErrorAlert error={error} title="Could not read the saved runs:" />
      {list.length === 0 ? (
        <p className="panel muted job-kept-empty">{reports === undefined ? 'Loading…' : 'Runs appear here when they finish.'}</p>
      ) : (
        <div className="panel job-table-panel">
          <table className="data-table job-table job-kept-table aud-history-table">
            <thead>
              <tr>
                <th scope="col" title="Tick two runs to compare them">
                  Pick
                </th>
                <th scope="col">Finished (UTC)</th>
                <th scope="col">Where · range</th>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col" className="num">
                  Best p50
                </th>
                {STRATEGY_NAMES.map((s) => (
                  <th key={s} scope="col" className="num">
                    {s}
                  </th>
                ))}
                <th scope="col" aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {list.map((report) => {
                const r = historyRow(report);
                return (
                  <tr key={r.id} data-report-id={r.id} className={shown === r.id ? 'is-shown' : undefined}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Compare the run of ${r.date} ${r.time}`}
                        checked={picked.includes(r.id)}
                        onChange={() => setPicked(pickTwo(picked, r.id))}
                        data-testid="aud-history-pick"
                      />
                    </td>
                    <td className="aud-when">
                      {r.date}
                      <span className="job-cell-sub">{r.time}</span>
                    </td>
                    <td className="aud-history-where" title={r.target}>
                      <span className="mono">{r.where}</span>
                      {!r.countsMatch && <span className="tag tag-warn">counts differ</span>}
                      <span className="job-cell-sub">{r.range}</span>
                    </td>
                    <td className="num" data-col="size">
                      {r.audienceSize}
                    </td>
                    <td className="num" data-col="best">
                      <span className="job-strong">{r.bestMs}</span>
                      <span className="job-cell-sub">{r.bestName}</span>
                    </td>
                    {STRATEGY_NAMES.map((s) => (
                      <td key={s} className="num" data-col={s}>
                        {r.p50[s]}
                      </td>
                    ))}
                    <td className="job-kept-actions">
                      <ShowButton id={r.id} shown={shown} onShow={onShow} testId="aud-history-show" />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {pair.length === 2 && <PairTable x={pair[0] as AudienceReport} y={pair[1] as AudienceReport} />}
      {pair.length === 1 && <p className="hint">Tick one more run to compare.</p>}
    </section>
  );
}
