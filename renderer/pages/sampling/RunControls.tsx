import { useId } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import { useBridge } from '../../bridge/BridgeContext';
import { Choices } from '../../components/Choices';
import { ErrorAlert } from '../../components/ErrorAlert';
import { TextField } from '../../components/TextField';
import { addressOf } from '../../lib/address';
import { useStart } from '../../lib/useStart';
import { controlOf, dbOf, METHODS, methodNames, toOptions, type Control, type RunForm } from './form';
import type { KeptRun } from './runStore';

interface Props {
  profile: ProfileView;
  form: RunForm;
  onForm(form: RunForm): void;
  /** A run of this profile is still going: one at a time per profile. */
  running: boolean;
  onStarted(run: KeptRun): void;
}

/** Method, DB and the knobs that keep a run gentle on a busy server; Start. */
export function RunControls({ profile, form, onForm, running, onStarted }: Props) {
  const bridge = useBridge();
  const uid = useId();
  const { start, starting, errors, error, clear } = useStart(controlOf);
  const census = form.method === 'census';

  function change(patch: Partial<RunForm>) {
    clear(Object.keys(patch) as Control[]);
    onForm({ ...form, ...patch });
  }

  const run = () =>
    start(async () => {
      if (running) return;
      const { jobId } = await bridge.invoke('sampling.start', toOptions(profile.id, form));
      onStarted({ jobId, profileId: profile.id, profileName: profile.name, method: form.method, db: dbOf(form, profile.db) });
    });

  const field = (control: Control, label: string, hint: string, opts: { placeholder?: string; mono?: boolean } = {}) => (
    <TextField
      label={label}
      field={control}
      className={`smp-field smp-field-${control}`}
      value={form[control]}
      onChange={(value) => change({ [control]: value })}
      error={errors[control]}
      hint={hint}
      numeric={!opts.mono}
      mono={opts.mono}
      placeholder={opts.placeholder}
      testId={`sampling-${control}`}
    />
  );

  return (
    <section className="panel job-controls" aria-labelledby={`${uid}-title`}>
      <header className="job-controls-head">
        <h2 id={`${uid}-title`}>Run</h2>
        <span className="muted">
          on <strong className="job-profile">{profile.name}</strong> <span className="mono">{addressOf(profile)}</span> (the profile chosen in the header)
        </span>
      </header>
      <div className="smp-controls-grid">
        <Choices
          legend="Method"
          field="method"
          className="smp-methods"
          options={methodNames.map((m) => ({ value: m, ...METHODS[m] }))}
          value={form.method}
          onChange={(method) => change({ method })}
          error={errors.method}
          testIdPrefix="sampling-method"
        />
        <div className="smp-fields">
          {field('db', 'DB', `empty: the profile's (db${profile.db})`, { placeholder: String(profile.db) })}
          {census
            ? field('match', 'MATCH pattern', 'SCAN MATCH glob; empty: every key', { placeholder: 'user:*', mono: true })
            : field('samples', 'Samples', 'RANDOMKEY draws (with repeats)')}
          {census ? field('scanCount', 'SCAN COUNT', 'keys asked for per SCAN call') : null}
          {field('pauseMs', 'Pause between batches (ms)', 'gentle on production: lets other clients in')}
          {field('memorySamples', 'MEMORY USAGE samples', '0 = exact (slow on big keys)')}
        </div>
      </div>
      <div className="job-start-row">
        <button type="button" className="btn btn-primary" onClick={run} disabled={starting || running} aria-busy={starting} data-testid="sampling-start">
          {starting ? 'Starting…' : census ? 'Start census' : 'Start sample'}
        </button>
        {running && <span className="hint">A run on this profile is in progress; cancel it below or wait for its report.</span>}
        <ErrorAlert error={error} title="Could not start:" />
      </div>
    </section>
  );
}
