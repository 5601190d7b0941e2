import type { AppError } from '../../../app/errors';
import type { Preview } from './usePreview';

interface Props {
  /** No file chosen yet. */
  idle: boolean;
  /** The rows to show: the current answer, or the last good one while the next is on its way. */
  preview: Preview | undefined;
  stale: boolean;
  /** A failed preview no input can own (a field error shows beside its input instead). */
  error: AppError | undefined;
  /** The failure belongs to an input above; the table waits for it to be fixed. */
  blockedByField: boolean;
  /** Tabular input without a key template yet: nothing to turn into commands. */
  needsKey: boolean;
}

/** Step 3: the first records as the commands they will become. Args arrive escaped; shown as text. */
export function PreviewPanel({ idle, preview, stale, error, blockedByField, needsKey }: Props) {
  const problem = error?.message ?? preview?.error;
  return (
    <section className="panel bulk-step bulk-preview" aria-labelledby="bulk-preview-title" aria-busy={stale}>
      <header className="bulk-step-head">
        <h2 id="bulk-preview-title">
          <span className="bulk-step-no">3</span> Preview
        </h2>
        {preview !== undefined && !needsKey && (
          <span className="muted">
            first {preview.rows.length} {preview.rows.length === 1 ? 'command' : 'commands'} · {preview.format}
            {stale && ' · updating…'}
          </span>
        )}
      </header>
      {problem !== undefined && (
        <p className="bulk-preview-error" role="alert" data-testid="bulk-preview-error">
          {problem}
        </p>
      )}
      {idle ? (
        <p className="empty">Choose a file to see its first commands.</p>
      ) : needsKey && problem === undefined ? (
        <p className="empty">Fill in the key template (click a column to start it) to see the commands.</p>
      ) : blockedByField ? (
        <p className="empty">Fix the highlighted input to see the commands.</p>
      ) : preview === undefined ? (
        error === undefined && <p className="empty">Reading the file…</p>
      ) : preview.rows.length === 0 ? (
        <p className="empty">No commands in the first rows{preview.error === undefined ? '.' : ' before the problem above.'}</p>
      ) : (
        <div className="bulk-preview-scroll">
          <table className={`data-table bulk-preview-table${stale ? ' is-stale' : ''}`} data-testid="bulk-preview">
            <thead>
              <tr>
                <th scope="col" className="num">
                  Line
                </th>
                <th scope="col">Command</th>
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((r, i) => (
                <tr key={`${r.line}-${i}`}>
                  <td className="num bulk-line">{r.line}</td>
                  <td className="bulk-command">
                    <span className="bulk-verb">{r.args[0]}</span>
                    {r.args.length > 1 && ` ${r.args.slice(1).join(' ')}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {sentAsMset(preview) && (
            <p className="muted" data-testid="bulk-preview-mset">
              Shown a row per command; a load on one server sends these SETs as MSETs of up to 64 rows (the same data, fewer commands). A cluster load sends a
              SET each.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** Tabular string rows without a ttl: the load groups them into MSETs (main/core/bulk/sources/msetRun.ts). */
function sentAsMset(preview: Preview): boolean {
  const tabular = preview.format === 'csv' || preview.format === 'tsv' || preview.format === 'ndjson';
  return tabular && preview.rows.some((r) => r.args.length === 3 && r.args[0] === 'SET');
}
