import { useId, useState } from 'react';
import { roleOf } from '../../auth/permissions';
import { useSession } from '../../auth/SessionContext';
import { CancelButton } from '../../components/CancelButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ProgressBar } from '../../components/ProgressBar';
import { indexWords } from './indexText';
import type { KeysIndex } from './useKeysIndex';

/** The job pages' state pill (jobPage.css) per tone: green complete, amber incomplete, red failed, blue scanning. */
const PILL: Record<ReturnType<typeof indexWords>['tone'], string> = { ok: 'is-done', warn: 'is-cancelled', err: 'is-failed', info: '', none: 'keys-pill-none' };

/** DBs offered: Redis' default `databases 16`; a higher one comes from a link. */
const DB_COUNT = 16;

interface Props {
  db: number;
  onDb(db: number): void;
  /** A cluster has DB 0 only. */
  cluster: boolean;
  separator: string;
  onSeparator(sep: string): void;
  index: KeysIndex;
}

/** Which DB and separator the tree is for, Build tree / Refresh / Cancel, and the index state in plain words. */
export function IndexBar({ db, onDb, cluster, separator, onSeparator, index }: Props) {
  const uid = useId();
  const [sepDraft, setSepDraft] = useState(separator);
  const s = index.state;
  const w = indexWords(s);
  const running = index.runningJobId !== undefined;
  const role = roleOf(useSession().session);
  const sepChanged = sepDraft !== separator && sepDraft !== '';
  // The index is shared: an analyst uses a complete one as it is (the server refuses a refresh too).
  const analystKept = role === 'analyst' && !sepChanged && s?.complete === true && s.status !== 'building';
  const dbs = Array.from({ length: Math.max(DB_COUNT, db + 1) }, (_, i) => i);

  const build = () => {
    // A new separator is another index: switching to it builds one if the server has none.
    if (sepChanged) onSeparator(sepDraft);
    else void index.start(s?.deep ?? false);
  };

  return (
    <section className="panel keys-indexbar" aria-label="Namespace index" data-testid="keys-indexbar">
      <form
        className="keys-indexbar-controls"
        onSubmit={(e) => {
          e.preventDefault();
          build();
        }}
      >
        <label htmlFor={`${uid}-db`}>DB</label>
        <select
          id={`${uid}-db`}
          value={db}
          disabled={cluster}
          title={cluster ? 'A cluster has DB 0 only' : undefined}
          onChange={(e) => onDb(Number(e.target.value))}
          data-testid="keys-db"
        >
          {(cluster ? [0] : dbs).map((n) => (
            <option key={n} value={n}>
              db{n}
            </option>
          ))}
        </select>
        <label htmlFor={`${uid}-sep`}>Separator</label>
        <input
          id={`${uid}-sep`}
          type="text"
          className="mono keys-sep"
          value={sepDraft}
          maxLength={8}
          onChange={(e) => setSepDraft(e.target.value)}
          aria-invalid={sepDraft === ''}
          title="Folders split key names at this text (1 to 8 characters)"
          data-testid="keys-separator"
        />
        <button
          type="submit"
          className="btn btn-primary btn-small"
          disabled={running || index.starting || sepDraft === '' || analystKept}
          title={
            analystKept
              ? 'This index is shared by every user of the connection; an ops user can re-index it'
              : 'Scan the DB again now (the index is otherwise kept, and re-scanned on opening once past its age)'
          }
          data-testid="keys-build"
        >
          {sepChanged || s?.status === 'none' ? 'Build tree' : 'Re-index'}
        </button>
        {index.runningJobId !== undefined && (
          <CancelButton
            call="keys.index.cancel"
            jobId={index.runningJobId}
            title="Stop the scan; the counts so far stay, marked incomplete"
            finishedNote="The scan had already finished."
            testId="keys-cancel"
          />
        )}
      </form>
      <div className="keys-indexbar-state">
        <strong className={`job-state ${PILL[w.tone]}`} data-testid="keys-index-state">
          {w.badge}
        </strong>
        {running ? <ProgressBar fraction={w.fraction} label="Index progress" valueText={w.line} small testId="keys-index-progress" /> : null}
        <span className="keys-indexbar-line" data-testid="keys-index-line">
          {w.line}
        </span>
        {w.age !== undefined && (
          <span
            className="muted keys-indexbar-mem"
            title="One index per DB and separator, shared by every user: its counts are as of this build"
            data-testid="keys-index-age"
          >
            {w.age}
          </span>
        )}
        {w.kept !== undefined && (
          <span
            className="muted keys-indexbar-mem"
            title="The server keeps this index while it runs: key edits and bulk actions update it from their own results"
            data-testid="keys-index-kept"
          >
            {w.kept}
          </span>
        )}
        {w.scanNote !== undefined && (
          <span className="muted keys-indexbar-mem" title="Each SCAN of the index stays under this server's slowlog threshold" data-testid="keys-index-scan">
            {w.scanNote}
          </span>
        )}
        {w.memory !== '' && (
          <span className="muted keys-indexbar-mem" title="Memory the name index holds on the server, and its budget">
            {w.memory}
          </span>
        )}
        {w.overBudget !== undefined && (
          <span
            className="tag tag-warn"
            data-testid="keys-over-budget"
            title="Past the memory budget the index keeps counts only; opening a folder lists its keys by a paced SCAN MATCH"
          >
            {w.overBudget}
          </span>
        )}
      </div>
      {w.stale !== undefined && (
        <p className="keys-indexbar-stale" role="status" data-testid="keys-index-stale">
          {w.stale}
        </p>
      )}
      <ErrorAlert error={index.error} title="Index:" />
    </section>
  );
}
