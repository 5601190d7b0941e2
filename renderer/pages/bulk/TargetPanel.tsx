import { useId, useState } from 'react';
import type { AppError } from '../../../app/errors';
import type { ProfileView } from '../../../app/schemas/connections';
import { ErrorAlert } from '../../components/ErrorAlert';
import { hrefOf } from '../../lib/route';
import { addressOf } from '../../lib/address';
import { formatCount } from '../../lib/format';
import { TextField } from '../../components/TextField';
import { modeOptions } from './clusterModes';
import { LoadGuards } from './LoadGuards';
import { ModePicker } from './ModePicker';
import { needsConfirm, type Control, type TargetValues } from './setup';

interface Props {
  profile: ProfileView | undefined;
  profilesLoading: boolean;
  values: TargetValues;
  onChange(patch: Partial<TargetValues>): void;
  errors: Partial<Record<Control, string>>;
  /** Why Start is disabled, if it is. */
  blocked: string | undefined;
  /** The profile's server is a replica: the load would be refused, so nothing asks to confirm it. */
  replica: boolean;
  /** Keys the target DB holds now, when known: what a swap or flush replaces. */
  targetKeys: number | undefined;
  starting: boolean;
  startError: AppError | undefined;
  onStart(): void;
}

/** Step 4: where the data goes, how readers are protected, and the typed confirmation. */
export function TargetPanel(p: Props) {
  const uid = useId();
  const { values: v, onChange, errors, profile } = p;
  const db = v.targetDb.trim() === '' ? '?' : v.targetDb.trim();
  const swap = v.mode === 'swap';
  const [advanced, setAdvanced] = useState(false);
  // An error on a folded input would be invisible: unfold for it.
  const advancedError = ['stagingDb', 'maxErrors', 'waitReplicas'].some((c) => errors[c as Control] !== undefined);

  const check = (key: 'force' | 'bgsave', label: string, disabled = false) => (
    <div className="field field-check">
      <input id={`${uid}-${key}`} type="checkbox" checked={v[key]} disabled={disabled} onChange={(e) => onChange({ [key]: e.target.checked })} />
      <label htmlFor={`${uid}-${key}`}>{label}</label>
    </div>
  );

  return (
    <section className="panel bulk-step bulk-target" aria-labelledby={`${uid}-title`}>
      <header className="bulk-step-head">
        <h2 id={`${uid}-title`}>
          <span className="bulk-step-no">4</span> Target &amp; mode
        </h2>
      </header>
      {profile === undefined ? (
        <p className="empty">
          {p.profilesLoading ? (
            'Loading connections…'
          ) : (
            <>
              No connection to load into. <a href={hrefOf('connections')}>Add one on Connections</a>.
            </>
          )}
        </p>
      ) : (
        <div className="bulk-target-grid">
          <div className="bulk-target-col">
            <div className="field">
              <span className="bulk-label">Target profile</span>
              <span className="bulk-profile" data-testid="bulk-target-profile">
                <strong>{profile.name}</strong> <span className="mono muted">{addressOf(profile)}</span>
              </span>
              <span className="hint">The profile chosen in the header.</span>
            </div>
            <TextField
              label="Target DB"
              field="targetDb"
              className="bulk-db"
              value={v.targetDb}
              onChange={(targetDb) => onChange({ targetDb })}
              error={errors.targetDb}
              placeholder={String(profile.db)}
              numeric
            />
          </div>

          <div className="bulk-target-col">
            <ModePicker options={modeOptions(profile)} value={v.mode} onChange={(mode) => onChange({ mode, confirm: '' })} error={errors.mode} />
            <LoadGuards values={v} onChange={onChange} errors={errors} />
          </div>

          <div className="bulk-target-col">
            <details className="bulk-advanced" open={advanced || advancedError} onToggle={(e) => setAdvanced(e.currentTarget.open)}>
              <summary>Advanced</summary>
              <div className="bulk-advanced-grid">
                <TextField
                  label="Staging DB"
                  field="stagingDb"
                  value={v.stagingDb}
                  onChange={(stagingDb) => onChange({ stagingDb })}
                  error={errors.stagingDb}
                  placeholder={swap ? 'auto (highest empty, never 0)' : 'swap only'}
                  numeric
                />
                <TextField
                  label="Max errors"
                  field="maxErrors"
                  value={v.maxErrors}
                  onChange={(maxErrors) => onChange({ maxErrors })}
                  error={errors.maxErrors}
                  placeholder="0"
                  hint="Error replies tolerated before the load stops"
                  numeric
                />
                <TextField
                  label="Wait for replicas"
                  field="waitReplicas"
                  value={v.waitReplicas}
                  onChange={(waitReplicas) => onChange({ waitReplicas })}
                  error={errors.waitReplicas}
                  placeholder="don’t wait"
                  hint="WAIT for this many replicas to ack at the end"
                  numeric
                />
                <div className="bulk-advanced-checks">
                  {check('force', 'Force: use a non-empty staging DB (it is flushed)', !swap)}
                  {check('bgsave', 'BGSAVE after the load')}
                </div>
              </div>
            </details>
          </div>
        </div>
      )}

      {profile !== undefined && p.replica && (
        <p className="alert alert-error bulk-replica" role="note" data-testid="bulk-replica">
          <span>
            <strong>{profile.name}</strong> answers as a replica: it takes no writes, so a load there would be refused. Pick the profile of its master in the
            header.
          </span>
        </p>
      )}
      {profile !== undefined && (
        <div className="bulk-start-row">
          {needsConfirm(v.mode) && !p.replica && (
            <TextField
              label="Type the DB number to confirm"
              field="confirmDb"
              className="bulk-confirm"
              value={v.confirm}
              onChange={(confirm) => onChange({ confirm })}
              error={errors.confirmDb}
              placeholder={db}
              testId="bulk-confirm-db"
              numeric
              hint={
                <span data-testid="bulk-confirm-hint">
                  {v.mode === 'swap' ? 'Replaces' : 'Flushes'} <strong>db{db}</strong> on <strong>{profile.name}</strong>
                  {p.targetKeys === undefined ? (
                    '.'
                  ) : p.targetKeys === 0 ? (
                    ', which is empty.'
                  ) : (
                    <>
                      , which holds <strong data-testid="bulk-target-keys">{formatCount(p.targetKeys)}</strong> key{p.targetKeys === 1 ? '' : 's'}:{' '}
                      {v.mode === 'swap' ? 'the loaded data takes their place' : 'all of them are deleted first'}.
                    </>
                  )}
                </span>
              }
            />
          )}
          <div className="bulk-start">
            <button
              type="button"
              className={`btn ${v.mode === 'merge' ? 'btn-primary' : 'btn-danger'}`}
              data-testid="bulk-start"
              disabled={p.blocked !== undefined || p.starting}
              aria-busy={p.starting}
              onClick={p.onStart}
            >
              {p.starting ? 'Starting…' : `Start ${v.mode}`}
            </button>
            {p.blocked !== undefined && <span className="hint">{p.blocked}</span>}
          </div>
          <ErrorAlert error={p.startError} title="Could not start:" />
        </div>
      )}
    </section>
  );
}
