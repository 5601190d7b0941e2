import { useId, useState } from 'react';
import type { AppError } from '../../../app/errors';
import type { ProfileView } from '../../../app/schemas/connections';
import { MIN_EXPORT_PASSPHRASE } from '../../../app/schemas/profileTransfer';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { CheckField } from '../../components/CheckField';
import { ErrorAlert } from '../../components/ErrorAlert';
import { downloadText } from '../../lib/download';
import { useModalDialog } from '../../lib/useModalDialog';
import './transfer.css';

interface Props {
  /** The profiles the user may carry elsewhere (theirs, not the server configuration's). */
  profiles: ProfileView[];
  onDone(message: string): void;
  onClose(): void;
}

/**
 * Export the chosen profiles as a file. The file is built on the Node side; secrets are in it only
 * when asked, sealed there with the passphrase typed here, so the page never holds one in clear.
 */
export function ExportDialog({ profiles, onDone, onClose }: Props) {
  const bridge = useBridge();
  const titleId = useId();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(profiles.map((p) => p.id)));
  const [withSecrets, setWithSecrets] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError>();
  const close = () => {
    if (!busy) onClose();
  };
  const modal = useModalDialog(close);

  const mismatch = withSecrets && again !== '' && again !== passphrase;
  const short = withSecrets && passphrase.length < MIN_EXPORT_PASSPHRASE;
  const ready = chosen.size > 0 && !(withSecrets && (short || again !== passphrase));

  async function run() {
    setBusy(true);
    setError(undefined);
    try {
      const all = chosen.size === profiles.length;
      const file = await bridge.invoke('connections.export', {
        ...(all ? {} : { ids: profiles.filter((p) => chosen.has(p.id)).map((p) => p.id) }),
        includeSecrets: withSecrets,
        ...(withSecrets ? { passphrase } : {}),
      });
      downloadText(file.fileName, file.content, 'application/json');
      onDone(
        `Exported ${file.count} profile${file.count === 1 ? '' : 's'}${withSecrets ? `, secrets of ${file.withSecrets} sealed with the passphrase` : ', without secrets'}.`,
      );
    } catch (e) {
      setError(toAppError(e));
    } finally {
      setBusy(false);
    }
  }

  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };

  return (
    <dialog {...modal} className="pt-dialog" aria-labelledby={titleId} data-testid="export-dialog">
      <h2 id={titleId}>Export connections</h2>
      <div className="pt-body">
        <div className="pt-pick-head">
          <span>
            {chosen.size} of {profiles.length} chosen
          </span>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setChosen(new Set(profiles.map((p) => p.id)))}>
            All
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setChosen(new Set())}>
            None
          </button>
        </div>
        <ul className="pt-pick" aria-label="Profiles to export">
          {profiles.map((p) => (
            <li key={p.id}>
              <label>
                <input type="checkbox" checked={chosen.has(p.id)} onChange={(e) => toggle(p.id, e.target.checked)} data-testid="export-pick" />
                <span className="pt-name">{p.name}</span>
                {(p.tags ?? []).map((t) => (
                  <span key={t} className="tag">
                    {t}
                  </span>
                ))}
              </label>
            </li>
          ))}
        </ul>
        <CheckField
          label="Include secrets (passwords, SSH passphrases), sealed with a passphrase"
          field="includeSecrets"
          checked={withSecrets}
          onChange={setWithSecrets}
          testId="export-secrets"
        />
        {withSecrets && (
          <div className="field-row pt-passphrase">
            <label className="field">
              <span>Passphrase</span>
              <input
                type="password"
                autoComplete="new-password"
                value={passphrase}
                onChange={(e) => setPassphrase(e.target.value)}
                data-testid="export-passphrase"
              />
              <span className="hint">{short ? `At least ${MIN_EXPORT_PASSPHRASE} characters.` : 'Whoever imports the file needs it; it is not stored.'}</span>
            </label>
            <label className="field">
              <span>Passphrase again</span>
              <input
                type="password"
                autoComplete="new-password"
                value={again}
                onChange={(e) => setAgain(e.target.value)}
                data-testid="export-passphrase-again"
              />
              {mismatch && <span className="field-error">The two passphrases differ.</span>}
            </label>
          </div>
        )}
      </div>
      <ErrorAlert error={error} title="Export refused:" />
      <div className="form-actions pt-actions">
        <button type="button" className="btn btn-primary" onClick={() => void run()} disabled={busy || !ready} aria-busy={busy} data-testid="export-confirm">
          {busy ? 'Exporting…' : `Export ${chosen.size} profile${chosen.size === 1 ? '' : 's'}`}
        </button>
        <button type="button" className="btn btn-ghost" onClick={close} disabled={busy}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
