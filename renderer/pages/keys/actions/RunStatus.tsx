import { toAppError } from '../../../bridge/toAppError';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { JobStatus } from '../../../components/JobStatus';
import { Stat } from '../../../components/Stat';
import { formatCount, formatEta, formatSeconds } from '../../../lib/format';
import { plural } from '../../../lib/plural';
import type { PageOp } from './actionForm';
import { OP_WORDS, pausedText, reportHeadline } from './actionText';
import { countsOf, fractionOf, type ActionView } from './actionView';
import { ShardTable } from './ShardTable';

interface Props {
  jobId: string;
  view: ActionView;
  op: PageOp;
  dryRun: boolean;
  /** What runs, for the headline while it does: "Dry run of user:*". */
  title: string;
}

/**
 * A run as it goes and as it ended: the bar (keys scanned of the DBSIZE at the start), rate,
 * ETA, why it is paused, Cancel; then the report's matched, acted, skipped, errors and seconds,
 * which for a cancelled or failed run are exactly what it did before it stopped.
 */
export function RunStatus({ jobId, view: v, op, dryRun, title }: Props) {
  const c = countsOf(v);
  const p = v.progress;
  const running = v.outcome === undefined;
  const prefix = dryRun ? 'ka-dry' : 'ka-run';
  const paused = running ? pausedText(p?.paused) : undefined;
  const headline = running
    ? `${title}: ${p === undefined ? 'starting…' : paused === undefined ? 'running' : 'paused'}`
    : v.report === undefined
      ? `${title}: ${v.outcome}`
      : dryRun && v.outcome !== 'done'
        ? `${title}: ${v.outcome} after ${plural(v.report.scanned, 'key')} scanned, ${formatCount(v.report.matched)} matched.`
        : reportHeadline(v.report, v.outcome ?? 'done', op);
  const fraction = fractionOf(v);
  // A part of the run that died mid-page: matched and acted are lower bounds, by this much at most.
  const short = c?.short ?? 0;
  const atLeast = short > 0 ? `at least: up to ${formatCount(short)} uncounted` : undefined;
  return (
    <div className="ka-status" data-testid={`${prefix}-status`} data-outcome={v.outcome ?? 'running'}>
      <JobStatus
        outcome={v.outcome}
        label={dryRun ? 'Dry run status' : 'Run status'}
        headline={headline}
        testIdPrefix={prefix}
        cancel={{
          call: 'keys.actions.cancel',
          jobId,
          title: dryRun ? 'Stop the dry run' : 'Stop the run: the report says exactly what it did, and it can be resumed',
          finishedNote: 'The run had already finished.',
        }}
        error={v.outcome === 'failed' && v.error !== undefined && <ErrorAlert error={toAppError(v.error)} title="The run failed:" />}
        progress={{
          fraction,
          label: dryRun ? 'Dry run progress' : 'Run progress',
          valueText: c === undefined ? 'starting' : `${formatCount(c.scanned)} of ${plural(c.total, 'key')} scanned`,
        }}
      >
        {paused !== undefined && (
          <p className="hint hint-warn ka-paused" data-testid="ka-paused" data-reason={p?.paused?.reason}>
            {paused}
          </p>
        )}
        {c !== undefined && (
          <dl className="stat-grid ka-stats">
            <Stat label="Scanned" value={formatCount(c.scanned)} sub={`of ${formatCount(c.total)}`} testId={`${prefix}-scanned`} />
            <Stat label="Matched" value={formatCount(c.matched)} sub={atLeast} testId={`${prefix}-matched`} />
            {!dryRun && <Stat label={OP_WORDS[op].stat} value={formatCount(c.acted)} sub={atLeast} testId={`${prefix}-acted`} />}
            {!dryRun && <Stat label="Skipped" value={formatCount(c.skipped)} sub="gone or changed" testId={`${prefix}-skipped`} />}
            <Stat label="Errors" value={formatCount(c.errors)} testId={`${prefix}-errors`} />
            {running ? (
              <>
                <Stat label="Rate" value={`${formatCount(p?.rate ?? 0)} keys/s`} sub="scanned" testId={`${prefix}-rate`} />
                <Stat label="ETA" value={formatEta(p?.etaSeconds ?? undefined)} testId={`${prefix}-eta`} />
              </>
            ) : (
              <Stat label="Seconds" value={formatSeconds(c.seconds)} testId={`${prefix}-seconds`} />
            )}
          </dl>
        )}
        {!running && v.report !== undefined && <ShardTable shards={v.report.shards} dryRun={dryRun} testId={`${prefix}-shards`} />}
        {!dryRun && v.report !== undefined && v.report.notes.length > 0 && (
          <ul className="ka-notes" data-testid={`${prefix}-notes`}>
            {v.report.notes.map((n, i) => (
              <li key={i} className="hint">
                {n}
              </li>
            ))}
          </ul>
        )}
        {v.report !== undefined && v.report.errorSamples.length > 0 && (
          <div className="ka-errors" data-testid={`${prefix}-error-samples`}>
            <span className="ka-label">First errors</span>
            <ul>
              {v.report.errorSamples.map((e, i) => (
                <li key={i} className="mono">
                  {e}
                </li>
              ))}
            </ul>
          </div>
        )}
      </JobStatus>
    </div>
  );
}
