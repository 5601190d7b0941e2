import type { AppError } from '../../../app/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { HeldBox } from './HeldBox';
import { NodeReplyView } from './NodeReplyView';
import { RunningLine } from './RunningLine';
import type { Entry } from './useConsoleRuns';

interface Props {
  entry: Entry;
  /** The prompt for a DB: `127.0.0.1:6379[2]>`. */
  prompt(db: number): string;
  /** Show replies as `redis-cli --raw` prints them. */
  raw: boolean;
  busy: boolean;
  onConfirm(typed: string): void;
  onDismiss(): void;
  onCancel(): void;
}

/** A refusal is the server's answer, not a fault: its own title. */
function failTitle(e: AppError): string {
  return e.code === 'FORBIDDEN' || e.code === 'READ_ONLY' || e.code === 'NOPERM' || e.code === 'VALIDATION' ? 'Refused:' : 'Failed:';
}

/** One command of the transcript: its line under the prompt it ran at, then its state or its replies. */
export function RunEntry({ entry, prompt, raw, busy, onConfirm, onDismiss, onCancel }: Props) {
  const s = entry.state;
  return (
    <article className="cn-entry" data-testid="console-entry" data-status={s.kind} aria-label={entry.line}>
      <div className="cn-entry-line mono">
        <span className="cn-prompt">{prompt(entry.db)}</span> <span className="cn-entry-text">{entry.line}</span>
        <span className="cn-entry-meta muted">
          RESP{entry.settings.protocol}
          {entry.settings.target.kind === 'masters' && ' · every master'}
          {entry.settings.target.kind === 'node' && ` · on ${entry.settings.target.address}`}
        </span>
      </div>
      {s.kind === 'running' && <RunningLine startedAt={s.startedAt} cancelling={s.cancelling} cancelError={s.cancelError} onCancel={onCancel} />}
      {s.kind === 'held' && <HeldBox held={s.result} busy={busy} onConfirm={onConfirm} onDismiss={onDismiss} />}
      {s.kind === 'failed' && <ErrorAlert error={s.error} title={failTitle(s.error)} />}
      {s.kind === 'cancelled' && <p className="muted cn-cancelled">Not run, or stopped before its reply: cancelled.</p>}
      {s.kind === 'done' && (
        <div className={s.result.replies.length > 1 ? 'cn-replies cn-side' : 'cn-replies'} data-testid="console-replies">
          {s.result.replies.map((r) => (
            <NodeReplyView key={r.address} reply={r} command={s.result.command} raw={raw} fileRaw={entry.settings.raw} showNode={s.result.replies.length > 1} />
          ))}
        </div>
      )}
    </article>
  );
}
