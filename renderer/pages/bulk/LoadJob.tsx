import { lazy, Suspense } from 'react';
import type { LoadReport } from '../../../app/schemas/bulk';
import { useStream } from '../../bridge/useStream';
import { ErrorAlert } from '../../components/ErrorAlert';
import type { KeptJob } from './jobStore';
import { EMPTY_LOAD, foldLoad, isTerminal, MAX_WARNINGS, outcomeOf } from './loadView';
import { PhaseStepper } from './PhaseStepper';
import { ProgressPanel } from './ProgressPanel';
import { ReportPanel } from './ReportPanel';

// Recharts is most of the bundle; it shares its lazy chunk with the Overview chart.
const OpsChart = lazy(() => import('./OpsChart').then((m) => ({ default: m.OpsChart })));

interface Props {
  job: KeptJob;
  /** Forget this job and start over. */
  onAnother(): void;
  /** Back to the settings this job was started with, when the page still has them; with the refusal to point at. */
  onAdjust: ((refusal: { field: string; message: string } | undefined) => void) | undefined;
  /** Subscribe again (the server replays the history). */
  onRefollow(): void;
}

/** A failed report's error that names an input: the setup shows it there. */
function refusalOf(r: LoadReport | undefined): { field: string; message: string } | undefined {
  const e = r?.error;
  return e?.field === undefined ? undefined : { field: e.field, message: e.message };
}

/**
 * One load, followed over `bulk.progress`. Subscribing after the start is safe:
 * the server replays the job's history, which is also how a revisit catches up.
 */
export function LoadJob({ job, onAnother, onAdjust, onRefollow }: Props) {
  const stream = useStream('bulk.progress', { jobId: job.jobId }, foldLoad, EMPTY_LOAD);
  const v = stream.value;
  const heard = v.startedAt !== undefined || v.report !== undefined;
  const lost = stream.error !== undefined && stream.error.code !== 'DISCONNECTED';
  const finished = isTerminal(v);

  const actions = (
    <>
      <button type="button" className="btn btn-primary" onClick={onAnother} data-testid="bulk-another">
        Load another file
      </button>
      {onAdjust !== undefined && (
        <button type="button" className="btn" onClick={() => onAdjust(refusalOf(v.report))} data-testid="bulk-adjust">
          Change settings and load again
        </button>
      )}
    </>
  );

  return (
    <div className="bulk-job" data-job-id={job.jobId}>
      <div className="toolbar">
        <p className="page-intro">
          <strong>{v.report?.file ?? job.file}</strong> → <strong>{job.profileName}</strong> db
          {v.report?.targetDb ?? job.targetDb} · {v.report?.mode ?? job.mode} <span className="mono muted">{job.jobId}</span>
        </p>
        {!finished && heard && !stream.live && !lost && (
          <span className="muted">
            {stream.error !== undefined ? (
              'Reconnecting to the load…'
            ) : (
              <>
                The progress stream ended before the report.{' '}
                <button type="button" className="btn btn-small" onClick={onRefollow}>
                  Follow again
                </button>
              </>
            )}
          </span>
        )}
      </div>

      {lost && !heard ? (
        <div className="panel error-state">
          <ErrorAlert error={stream.error} title={`Cannot follow load ${job.jobId}:`} />
          <p className="muted">The server may have restarted since it began; its report is gone with it.</p>
          <div className="form-actions">{actions}</div>
        </div>
      ) : (
        <>
          {v.report !== undefined && <ReportPanel report={v.report} actions={actions} />}
          {lost && <ErrorAlert error={stream.error} title="Lost the progress stream:" />}
          {stream.dropped > 0 && <p className="hint">{stream.dropped} progress updates were dropped while the page was busy.</p>}
          <ProgressPanel job={job} view={v} />
          <div className="bulk-job-grid">
            <PhaseStepper view={v} />
            <Suspense fallback={<div className="panel chart">Loading chart…</div>}>
              <OpsChart points={v.series.points} startedAt={v.startedAt} outcome={outcomeOf(v)} />
            </Suspense>
          </div>
          {v.report === undefined && v.warnings.length > 0 && (
            <section className="panel bulk-warnings" aria-label="Warnings">
              <h3>Warnings</h3>
              <ul data-testid="bulk-warnings">
                {v.warnings.map((w) => (
                  <li key={`${w.at}-${w.message}`}>
                    <span className="mono muted">{new Date(w.at).toLocaleTimeString('en-GB', { hour12: false })}</span> {w.message}
                  </li>
                ))}
              </ul>
              {v.warningsOmitted > 0 && (
                <p className="hint">
                  {v.warningsOmitted} more (only the first {MAX_WARNINGS} are kept here; the report has them all).
                </p>
              )}
            </section>
          )}
        </>
      )}
    </div>
  );
}
