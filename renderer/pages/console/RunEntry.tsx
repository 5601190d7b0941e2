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

/** The command as run: the prompt, the line, and how it ran (protocol, target). */
function EntryLine({ entry, prompt }: { entry: Entry; prompt: string }) {
  const { protocol, target } = entry.settings;
  return (
    <div className="cn-entry-line mono">
      <span className="cn-prompt">{prompt}</span> <span className="cn-entry-text">{entry.line}</span>
      <span className="cn-entry-meta muted">
        RESP{protocol}
        {target.kind === 'masters' && ' · every master'}
        {target.kind === 'node' && ` · on ${target.address}`}
      </span>
    </div>
  );
}

/** One command of the transcript: its line under the prompt it ran at, then its state or its replies. */
export function RunEntry({ entry, prompt, raw, busy, onConfirm, onDismiss, onCancel }: Props) {
  const s = entry.state;
  const line = <EntryLine entry={entry} prompt={prompt(entry.db)} />;
  // One node's reply carries the line in its own head, beside its time and tools.
  const single = s.kind === 'done' && s.result.replies.length === 1 ? s.result.replies[0] : undefined;
  return (
    <article className="cn-entry" data-testid="console-entry" data-status={s.kind} aria-label={entry.line}>
      {single === undefined && line}
      {s.kind === 'running' && <RunningLine startedAt={s.startedAt} cancelling={s.cancelling} cancelError={s.cancelError} onCancel={onCancel} />}
      {s.kind === 'held' && <HeldBox held={s.result} busy={busy} onConfirm={onConfirm} onDismiss={onDismiss} />}
      {s.kind === 'failed' && <ErrorAlert error={s.error} title={failTitle(s.error)} />}
      {s.kind === 'cancelled' && <p className="muted cn-cancelled">Not run, or stopped before its reply: cancelled.</p>}
      {single !== undefined && s.kind === 'done' && (
        <NodeReplyView reply={single} command={s.result.command} raw={raw} fileRaw={entry.settings.raw} lead={line} showNode={false} />
      )}
      {single === undefined && s.kind === 'done' && (
        <div className="cn-side" data-testid="console-replies">
          {s.result.replies.map((r) => (
            <NodeReplyView
              key={r.address}
              reply={r}
              command={s.result.command}
              raw={raw}
              fileRaw={entry.settings.raw}
              showNode
              lead={
                <span className="cn-node-addr mono" data-testid="console-node-address">
                  {r.address} <span className="tag">{r.role}</span>
                </span>
              }
            />
          ))}
        </div>
      )}
      {single === undefined && s.kind === 'done' && s.result.total !== undefined && <TotalLine total={s.result.total} raw={raw} />}
    </article>
  );
}

/** The sum of the nodes' counts, where the server says they add up (DBSIZE on every master): redis-cli -c's one number. */
function TotalLine({ total, raw }: { total: { value: string; nodes: number; of: number }; raw: boolean }) {
  const missing = total.of - total.nodes;
  return (
    <p className="cn-total" data-testid="console-total">
      <span className="muted">
        Total of {missing === 0 ? `the ${total.of} nodes` : `${total.nodes} of ${total.of} nodes (${missing} did not answer a count)`}:
      </span>{' '}
      <span className="mono">{raw ? total.value : `(integer) ${total.value}`}</span>
    </p>
  );
}
