import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import type { CallOutput } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import type { LoadFile } from '../../../app/schemas/bulk';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import type { CallState } from '../../bridge/useCall';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FieldError } from '../../components/FieldError';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes } from '../../lib/format';
import { tooLarge, uploadFile, type UploadProgress } from './upload';

type Files = CallOutput<'bulk.files'>;

const ORIGIN_LABEL = {
  import: 'import folder',
  upload: 'uploaded',
  picked: 'picked',
  cli: 'command line',
} as const satisfies Record<LoadFile['origin'], string>;

interface Props {
  files: CallState<Files>;
  selected: LoadFile | undefined;
  onSelect(file: LoadFile): void;
  /** The server's complaint about the file, from a preview or a start. */
  fieldError: string | undefined;
}

/** Step 1: the files the server can read, plus an upload (web) or a file dialog (desktop). */
export function FilePanel({ files, selected, onSelect, fieldError }: Props) {
  const data = files.data;
  // The desktop picks through the main process; only the web build uploads.
  const canUpload = data !== undefined && !data.canPick && window.bridge === undefined;
  const list = data?.files ?? [];
  // A file just uploaded or picked shows at once, before the list is fetched again.
  const added = (f: LoadFile) => {
    onSelect(f);
    files.refresh();
  };
  const shown = selected !== undefined && !list.some((f) => f.fileId === selected.fileId) ? [selected, ...list] : list;

  return (
    <section className="panel bulk-step bulk-files" aria-labelledby="bulk-files-title">
      <header className="bulk-step-head">
        <h2 id="bulk-files-title">
          <span className="bulk-step-no">1</span> File
        </h2>
        <button type="button" className="btn btn-small btn-ghost" onClick={files.refresh} disabled={files.loading}>
          Refresh
        </button>
      </header>
      <ErrorAlert error={files.error} title="Could not list files:" />
      {shown.length === 0 ? (
        <p className="empty" data-testid="bulk-file-list">
          {files.loading
            ? 'Loading…'
            : data?.canPick
              ? 'No files yet. Choose one to load.'
              : 'No files yet. Upload one, or put files in the server’s import folder.'}
        </p>
      ) : (
        <ul className="bulk-file-list" data-testid="bulk-file-list" aria-label="Files">
          {shown.map((f) => {
            const on = f.fileId === selected?.fileId;
            return (
              <li key={f.fileId} data-testid="bulk-file" data-file-name={f.name} data-selected={on}>
                <button type="button" className="bulk-file" aria-pressed={on} onClick={() => onSelect(f)} title={f.name}>
                  <span className="bulk-file-radio" aria-hidden="true" />
                  <span className="bulk-file-name">{f.name}</span>
                  <span className="bulk-file-size">{formatBytes(f.size)}</span>
                  <span className="bulk-file-origin">{ORIGIN_LABEL[f.origin]}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <FieldError field="fileId" id="bulk-file-error" message={fieldError} />
      {data?.canPick && <PickButton onPicked={added} />}
      {canUpload && <UploadControl limitBytes={data.uploadLimitBytes} onUploaded={added} />}
    </section>
  );
}

function PickButton({ onPicked }: { onPicked(f: LoadFile): void }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError>();
  async function pick() {
    setBusy(true);
    setError(undefined);
    try {
      const { file } = await bridge.invoke('bulk.pick', {});
      if (file !== null) onPicked(file);
    } catch (e) {
      setError(toAppError(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="bulk-file-actions">
      <button type="button" className="btn" onClick={pick} disabled={busy} data-testid="bulk-pick">
        Choose file…
      </button>
      <ErrorAlert error={error} title="Could not open the file:" />
    </div>
  );
}

interface Upload {
  name: string;
  progress: UploadProgress;
  abort: AbortController;
}

function UploadControl({ limitBytes, onUploaded }: { limitBytes: number | undefined; onUploaded(f: LoadFile): void }) {
  const id = useId();
  const [upload, setUpload] = useState<Upload>();
  const [error, setError] = useState<AppError>();
  const current = useRef<AbortController | undefined>(undefined);
  // Leaving the page stops the transfer; the server discards a partial upload.
  useEffect(() => () => current.current?.abort(), []);

  async function onChange(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file may be chosen again after a failure
    if (file === undefined) return;
    setError(undefined);
    if (limitBytes !== undefined && file.size > limitBytes) {
      setError(tooLarge(limitBytes));
      return;
    }
    const abort = new AbortController();
    current.current = abort;
    setUpload({ name: file.name, progress: { loaded: 0, total: file.size }, abort });
    try {
      const stored = await uploadFile(file, {
        signal: abort.signal,
        limitBytes,
        onProgress: (progress) => setUpload((u) => (u?.abort === abort ? { ...u, progress } : u)),
      });
      onUploaded(stored);
    } catch (err) {
      if (!abort.signal.aborted) setError(toAppError(err));
    } finally {
      if (current.current === abort) current.current = undefined;
      setUpload((u) => (u?.abort === abort ? undefined : u));
    }
  }

  const pct = upload && upload.progress.total > 0 ? Math.floor((upload.progress.loaded / upload.progress.total) * 100) : 0;
  return (
    <div className="bulk-file-actions">
      <label htmlFor={id} className={`btn bulk-upload-label${upload ? ' is-disabled' : ''}`}>
        Upload file…
      </label>
      <input id={id} type="file" className="bulk-file-input" data-testid="bulk-upload-input" disabled={upload !== undefined} onChange={onChange} />
      <span className="hint">{limitBytes !== undefined ? `Up to ${formatBytes(limitBytes)} per upload.` : 'Uploads are stored on the server.'}</span>
      {upload && (
        <div className="bulk-upload" role="status">
          <span className="bulk-upload-name" title={upload.name}>
            {upload.name}
          </span>
          <ProgressBar small fraction={pct / 100} label={`Uploading ${upload.name}`} valueText={`${pct} %`} testId="bulk-upload-progress" />
          <span className="bulk-upload-figures">
            {formatBytes(upload.progress.loaded)} / {formatBytes(upload.progress.total)}
          </span>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => upload.abort.abort()}>
            Stop
          </button>
        </div>
      )}
      <ErrorAlert error={error} title="Upload failed:" />
    </div>
  );
}
