import { useId, useState } from 'react';
import type { CallInput } from '../../../../app/contract';
import type { AppError } from '../../../../app/errors';
import type { ProfileView } from '../../../../app/schemas/connections';
import { roleOf } from '../../../auth/permissions';
import { useSession } from '../../../auth/SessionContext';
import { useBridge } from '../../../bridge/BridgeContext';
import { toAppError } from '../../../bridge/toAppError';
import { useStream } from '../../../bridge/useStream';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { ProgressBar } from '../../../components/ProgressBar';
import { useModalDialog } from '../../../lib/useModalDialog';
import { countsText, foldExport, NO_EXPORT, skippedText } from './exportView';
import './export.css';

type Format = CallInput<'export.start'>['format'];
type Source = CallInput<'export.start'>['source'];

/** What the Keys page can export now: its folder, its list's glob, the open key. */
export interface ExportChoices {
  folder?: { prefixB64: string; label: string; count: number | undefined };
  pattern?: { matchB64: string; label: string };
  key?: { keyB64: string; label: string };
}

interface Props {
  profile: ProfileView;
  db: number;
  choices: ExportChoices;
  onClose(): void;
}

const FORMATS: Record<Format, string> = {
  ndjson: 'NDJSON: one JSON object per key (key, type, ttl_ms, value)',
  csv: 'CSV: key, type, ttl_ms, value (a JSON value for non-strings)',
  restore: 'RESTORE commands (exact, for Redis only; ops)',
};

/**
 * Export a folder, the list's glob or the open key as a file the browser downloads as it is
 * written, or on the desktop into the file its save dialog picks (whole once done, else left as
 * it was); the progress (keys of N, bytes, keys skipped) comes from export.progress. The
 * readable formats load back on the Bulk load page.
 */
export function ExportDialog({ profile, db, choices, onClose }: Props) {
  const bridge = useBridge();
  const titleId = useId();
  const ops = roleOf(useSession().session) === 'ops';
  const sources = (['folder', 'pattern', 'key'] as const).filter((s) => choices[s] !== undefined);
  const [pick, setPick] = useState<(typeof sources)[number] | undefined>(sources[0]);
  const [format, setFormat] = useState<Format>('ndjson');
  const [ttls, setTtls] = useState(true);
  const [job, setJob] = useState<{ jobId: string; fileName: string; savedTo?: string | undefined }>();
  const [error, setError] = useState<AppError>();
  const [starting, setStarting] = useState(false);
  const run = useStream('export.progress', job === undefined ? undefined : { jobId: job.jobId }, foldExport, NO_EXPORT).value;
  const running = job !== undefined && run.outcome === undefined;
  const close = () => {
    if (!running) onClose();
  };
  const modal = useModalDialog(close);

  const start = async () => {
    const source = sourceOf(choices, pick);
    if (source === undefined) return;
    setError(undefined);
    setStarting(true);
    try {
      const expected = pick === 'folder' ? choices.folder?.count : undefined;
      const out = await bridge.invoke('export.start', { profileId: profile.id, db, source, format, ttls, ...(expected === undefined ? {} : { expected }) });
      setJob({ jobId: out.jobId, fileName: out.fileName, savedTo: out.savedTo });
      // Web: the browser fetches the file with the session's cookie; the export streams into it.
      // Desktop: the runtime writes the file its save dialog chose.
      if (out.download !== undefined) {
        const a = document.createElement('a');
        a.href = out.download;
        a.download = out.fileName;
        document.body.append(a);
        a.click();
        a.remove();
      }
    } catch (e) {
      setError(toAppError(e));
    } finally {
      setStarting(false);
    }
  };

  const c = run.counts;
  return (
    <dialog {...modal} className="ex-dialog" aria-labelledby={titleId} data-testid="export-dialog" data-outcome={run.outcome ?? ''}>
      <header className="ex-head">
        <h2 id={titleId}>Export keys</h2>
        <span className="muted">
          db{db} on {profile.name}
        </span>
      </header>
      <div className="ex-body">
        <fieldset className="ex-group" disabled={job !== undefined}>
          <legend>What</legend>
          {sources.map((s) => (
            <label key={s} className="ex-choice">
              <input type="radio" name="ex-source" checked={pick === s} onChange={() => setPick(s)} data-testid={`export-source-${s}`} />
              <span>{SOURCE_WORDS[s]}</span>
              <span className="mono ex-what" title={choices[s]?.label}>
                {choices[s]?.label}
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className="ex-group" disabled={job !== undefined}>
          <legend>Format</legend>
          {(Object.keys(FORMATS) as Format[]).map((f) => (
            <label key={f} className="ex-choice">
              <input
                type="radio"
                name="ex-format"
                checked={format === f}
                disabled={f === 'restore' && !ops}
                onChange={() => setFormat(f)}
                data-testid={`export-format-${f}`}
              />
              <span>{FORMATS[f]}</span>
            </label>
          ))}
          <label className="ex-choice">
            <input type="checkbox" checked={ttls} onChange={(e) => setTtls(e.target.checked)} data-testid="export-ttls" />
            <span>Include TTLs (each key&apos;s time left when it is read)</span>
          </label>
        </fieldset>
        {error !== undefined && <ErrorAlert error={error} />}
        {job !== undefined && (
          <div className={`ex-progress is-${run.outcome === 'done' ? 'ok' : (run.outcome ?? 'running')}`} data-testid="export-progress">
            <p className="mono ex-file">{job.savedTo ?? job.fileName}</p>
            <ProgressBar
              fraction={c === undefined || c.total === null || c.total === 0 ? undefined : Math.min(1, c.keys / c.total)}
              done={run.outcome !== undefined}
              label="Export progress"
              valueText={c === undefined ? 'waiting for the download' : countsText(c)}
              figure={<span data-testid="export-counts">{c === undefined ? 'Waiting for the download to begin…' : countsText(c)}</span>}
            />
            {c !== undefined && (
              <p className="muted" data-testid="export-skipped">
                {skippedText(c)}
              </p>
            )}
            {run.outcome === 'done' && (
              <p data-testid="export-done">{job.savedTo === undefined ? 'Done: the download is whole.' : `Done: saved whole to ${job.savedTo}.`}</p>
            )}
            {run.outcome === 'cancelled' && (
              <p>{job.savedTo === undefined ? 'Cancelled: the download is incomplete (the browser marks it failed).' : 'Cancelled: no file was written.'}</p>
            )}
            {run.error !== undefined && <p className="field-error">{run.error}</p>}
          </div>
        )}
      </div>
      <footer className="ex-foot">
        {running ? (
          <button type="button" className="btn" onClick={() => void bridge.invoke('export.cancel', { jobId: job.jobId })} data-testid="export-cancel">
            Cancel export
          </button>
        ) : (
          <button type="button" className="btn" onClick={close} data-testid="export-close">
            Close
          </button>
        )}
        {job === undefined && (
          <button type="button" className="btn btn-primary" onClick={() => void start()} disabled={starting || pick === undefined} data-testid="export-start">
            Export
          </button>
        )}
      </footer>
    </dialog>
  );
}

const SOURCE_WORDS = { folder: 'The folder', pattern: 'Every key the list matches', key: 'The open key' } as const;

function sourceOf(choices: ExportChoices, pick: keyof ExportChoices | undefined): Source | undefined {
  if (pick === 'folder' && choices.folder) return { kind: 'prefix', prefix: choices.folder.prefixB64 };
  if (pick === 'pattern' && choices.pattern) return { kind: 'pattern', match: choices.pattern.matchB64 };
  if (pick === 'key' && choices.key) return { kind: 'keys', keys: [choices.key.keyB64] };
  return undefined;
}
