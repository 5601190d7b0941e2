import { toAppError } from '../../bridge/toAppError';
import { CancelButton } from '../../components/CancelButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { JobState, outcomeClass } from '../../components/JobStatus';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatCount, formatFraction, formatSeconds } from '../../lib/format';
import { plural } from '../../lib/plural';
import type { DemoLoadState } from './useDemoLoad';

/** A demo load's bar and, once it ended, what it wrote. */
export function DemoStatus({ jobId, load }: { jobId: string; load: DemoLoadState }) {
  const { view: v, fraction, streamError } = load;
  const p = v.progress;
  const r = v.report;
  const running = v.outcome === undefined && streamError === undefined;
  return (
    <div className={`aud-demo-status ${outcomeClass(v.outcome)}`} data-testid="aud-demo-status" data-state={v.outcome ?? 'running'}>
      {streamError !== undefined && v.outcome === undefined && <ErrorAlert error={streamError} title={`Cannot follow demo load ${jobId}:`} />}
      {v.error !== undefined && <ErrorAlert error={toAppError(v.error)} title="The demo load failed:" />}
      {v.outcome !== 'failed' && (
        <div className="aud-demo-progress">
          <JobState outcome={v.outcome} runningWord="loading" testId="aud-demo-state" />
          <ProgressBar
            fraction={fraction}
            done={!running}
            small
            label="Demo data progress"
            valueText={`${formatCount(p?.done ?? 0)} of ${plural(p?.total ?? v.started?.total ?? 0, 'command')}`}
            testId="aud-demo-progress"
            figure={formatFraction(fraction)}
          />
          {/* No confirmation: a cancelled load keeps what it wrote. */}
          {running && (
            <CancelButton
              call="audience.demoCancel"
              jobId={jobId}
              title="Stop the load; keys already written stay"
              finishedNote="It had already finished."
              testId="aud-demo-cancel"
            />
          )}
        </div>
      )}
      {v.outcome !== 'failed' && (
        <p className="muted aud-demo-figures" data-testid="aud-demo-figures">
          {r !== undefined
            ? `${plural(r.users, 'user')} × ${plural(r.days, 'day')} (${r.first} → ${r.last}, seed ${r.seed}) into ${r.address} db${r.db}: ${plural(r.keys, 'key')}, ${plural(r.commands, 'command')}, ${formatBytes(r.bytes)} in ${formatSeconds(r.seconds)}.`
            : p !== undefined
              ? `${formatCount(p.done)} of ${plural(p.total, 'command')} · ${formatCount(p.commandsPerSec)} commands/s`
              : v.started !== undefined
                ? `${plural(v.started.users, 'user')} × ${plural(v.started.days, 'day')} into ${v.started.address} db${v.started.db} (${v.started.layouts.join(', ')})`
                : 'Starting…'}
        </p>
      )}
    </div>
  );
}
