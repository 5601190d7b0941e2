import { useId, useState } from 'react';
import type { AppError } from '../../../app/errors';
import type { ImportPreview } from '../../../app/schemas/profileTransfer';
import { MAX_IMPORT_FILE } from '../../../app/schemas/profileTransfer';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { CheckField } from '../../components/CheckField';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Segmented } from '../../components/Segmented';
import { useModalDialog } from '../../lib/useModalDialog';
import { ImportPreviewTable } from './ImportPreviewTable';
import './transfer.css';

const FORMAT_NAMES: Record<ImportPreview['format'], string> = {
  cacheboard: 'a Cacheboard export',
  redisinsight: "RedisInsight's database export",
  ardm: "Another Redis Desktop Manager's connections export",
};

type OnCollision = 'rename' | 'skip';

interface Props {
  onDone(message: string): void;
  onClose(): void;
}

/**
 * Import connections from a file: read it, preview what the Node side makes of it (nothing is
 * written), then import it whole. The file's text goes to the Node side as is; the preview that
 * comes back names the secrets an entry brings, never their values.
 */
export function ImportDialog({ onDone, onClose }: Props) {
  const bridge = useBridge();
  const titleId = useId();
  const [content, setContent] = useState<string>();
  const [fileName, setFileName] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [preview, setPreview] = useState<ImportPreview>();
  const [onCollision, setOnCollision] = useState<OnCollision>('rename');
  const [dropSecrets, setDropSecrets] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError>();
  const close = () => {
    if (!busy) onClose();
  };
  const modal = useModalDialog(close);
  const input = () => ({ content: content ?? '', ...(passphrase === '' ? {} : { passphrase }) });

  async function pick(file: File | undefined) {
    setPreview(undefined);
    setError(undefined);
    setContent(undefined);
    setFileName(file?.name ?? '');
    if (file === undefined) return;
    if (file.size > MAX_IMPORT_FILE) {
      setError(toAppError(new Error(`The file is ${Math.ceil(file.size / 1024)} KiB; at most ${MAX_IMPORT_FILE / 1024} KiB can be imported.`)));
      return;
    }
    setContent(await file.text());
  }

  async function act(what: 'preview' | 'commit') {
    setBusy(true);
    setError(undefined);
    try {
      if (what === 'preview') {
        setPreview(await bridge.invoke('connections.import.preview', input()));
      } else {
        const r = await bridge.invoke('connections.import.commit', { ...input(), onCollision, dropSecrets });
        const n = r.imported.length;
        const notes = [
          ...(r.skipped.length > 0 ? [`skipped ${r.skipped.length} whose name was taken`] : []),
          ...(dropSecrets ? ['without passwords: type them in each profile'] : []),
        ];
        onDone(`Imported ${n} profile${n === 1 ? '' : 's'}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}.`);
      }
    } catch (e) {
      setError(toAppError(e));
      if (what === 'preview') setPreview(undefined);
    } finally {
      setBusy(false);
    }
  }

  const collisions = preview?.entries.filter((e) => e.collision).length ?? 0;
  const bringsSecrets = preview?.entries.some((e) => e.secrets.length > 0) ?? false;
  const count = (preview?.entries.length ?? 0) - (onCollision === 'skip' ? collisions : 0);
  const noStorage = bringsSecrets && preview?.passwordStorage.available === false;
  const blocked = noStorage && !dropSecrets;

  return (
    <dialog {...modal} className="pt-dialog pt-dialog-wide" aria-labelledby={titleId} data-testid="import-dialog">
      <h2 id={titleId}>Import connections</h2>
      <div className="pt-body">
        <p className="hint">
          A Cacheboard export, RedisInsight&apos;s exported databases (JSON) or Another Redis Desktop Manager&apos;s exported connections (.ano).
        </p>
        <div className="field-row pt-source">
          <label className="field">
            <span>File</span>
            <input
              type="file"
              accept=".json,.ano,.txt,application/json,text/plain"
              onChange={(e) => void pick(e.target.files?.[0])}
              data-testid="import-file"
            />
          </label>
          <label className="field">
            <span>Passphrase</span>
            <input
              type="password"
              autoComplete="off"
              value={passphrase}
              onChange={(e) => {
                setPassphrase(e.target.value);
                setPreview(undefined);
              }}
              data-testid="import-passphrase"
            />
            <span className="hint">Only for a Cacheboard export made with secrets.</span>
          </label>
        </div>
        <ErrorAlert error={error} title={preview === undefined ? 'Cannot import this file:' : 'Import refused:'} />
        {preview !== undefined && (
          <>
            <p data-testid="import-summary">
              {fileName === '' ? 'The file' : <span className="pt-name">{fileName}</span>} is {FORMAT_NAMES[preview.format]} with {preview.entries.length}{' '}
              connection
              {preview.entries.length === 1 ? '' : 's'}
              {preview.secretsIncluded ? ', secrets included' : ''}.
            </p>
            {noStorage && (
              <div className="alert pt-no-storage" data-testid="import-no-storage">
                <span>{preview.passwordStorage.reason ?? 'No safe place to store passwords here.'}</span>
                <CheckField
                  label="Import without the passwords and passphrases (type them in each profile later)"
                  field="dropSecrets"
                  checked={dropSecrets}
                  onChange={setDropSecrets}
                  testId="import-drop-secrets"
                />
              </div>
            )}
            <ImportPreviewTable entries={preview.entries} onCollision={onCollision} />
            {collisions > 0 && (
              <div className="pt-collisions">
                <span>
                  {collisions} name{collisions === 1 ? ' is' : 's are'} taken:
                </span>
                <Segmented<OnCollision>
                  label="Profiles whose name is taken"
                  options={[
                    { value: 'rename', label: 'Import renamed' },
                    { value: 'skip', label: 'Skip them' },
                  ]}
                  value={onCollision}
                  onChange={setOnCollision}
                  testId="import-collisions"
                />
              </div>
            )}
          </>
        )}
      </div>
      <div className="form-actions pt-actions">
        {preview === undefined ? (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void act('preview')}
            disabled={busy || content === undefined}
            aria-busy={busy}
            data-testid="import-preview"
          >
            {busy ? 'Reading…' : 'Preview'}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void act('commit')}
            disabled={busy || blocked || count === 0}
            aria-busy={busy}
            data-testid="import-confirm"
          >
            {busy ? 'Importing…' : `Import ${count} profile${count === 1 ? '' : 's'}`}
          </button>
        )}
        <button type="button" className="btn btn-ghost" onClick={close} disabled={busy}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
