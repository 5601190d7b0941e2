import { useId } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import { useBridge } from '../../bridge/BridgeContext';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Segmented } from '../../components/Segmented';
import { addressOf } from '../../lib/address';
import { besideField } from '../../lib/formInput';
import { useServerFacts } from '../../lib/useServerFacts';
import { useStart } from '../../lib/useStart';
import { controlOf, toOptions, trialKinds, TRIALS, type Control, type TrialForm } from './form';
import type { CurrentRun } from './pageSession';
import { preCheck } from './preCheck';
import { TrialFields } from './TrialFields';
import type { TrialError } from './trialView';

interface Props {
  profile: ProfileView;
  form: TrialForm;
  onForm(form: TrialForm): void;
  /** A run of this profile is still going: one at a time. */
  running: boolean;
  onStarted(run: CurrentRun): void;
  /** The last run's refusal, shown beside the input it names (a DB with keys, a DB out of range) until the form changes. */
  refusal: TrialError | undefined;
  onDismissRefusal(): void;
}

const PICKER = trialKinds.map((value) => ({ value, label: TRIALS[value].label }));

/** Trial picker, its parameters, the proxy and the confirmation; Start. */
export function TrialControls({ profile, form, onForm, running, onStarted, refusal, onDismissRefusal }: Props) {
  const bridge = useBridge();
  const uid = useId();
  const { start, starting, errors, error, clear } = useStart(controlOf);
  // The server refuses a replica and a DB with keys of its own at its preflight: said here before Start.
  const check = preCheck(form, profile.db, useServerFacts(profile));

  function errorOf(control: Control): string | undefined {
    if (errors[control] !== undefined) return errors[control];
    if (control === 'confirmNonEmpty' && check.confirmNote !== undefined) return check.confirmNote;
    if (refusal !== undefined && controlOf(refusal.field) === control) return besideField(refusal.message, refusal.field);
    return undefined;
  }

  function change(patch: Partial<TrialForm>) {
    clear();
    onDismissRefusal();
    onForm({ ...form, ...patch });
  }

  const run = () =>
    start(async () => {
      if (running || check.blocked !== undefined) return;
      onDismissRefusal();
      const { jobId } = await bridge.invoke('trials.start', toOptions(profile.id, form));
      onStarted({ jobId, profileId: profile.id, profileName: profile.name, trial: form.trial });
    });

  return (
    <section className="panel job-controls" aria-labelledby={`${uid}-title`}>
      <header className="job-controls-head">
        <h2 id={`${uid}-title`}>Run</h2>
        <span className="muted">
          on <strong className="job-profile">{profile.name}</strong> <span className="mono">{addressOf(profile)}</span>
        </span>
      </header>
      <div className="trial-picker">
        <Segmented label="Trial" options={PICKER} value={form.trial} onChange={(trial) => change({ trial })} testId="trials-picker" />
        <span className="muted trial-detail">{TRIALS[form.trial].detail}</span>
      </div>
      <TrialFields form={form} profileDb={profile.db} change={change} errorOf={errorOf} />
      <div className="job-start-row">
        <button
          type="button"
          className="btn btn-primary"
          onClick={run}
          disabled={starting || running || check.blocked !== undefined}
          aria-busy={starting}
          data-testid="trials-start"
        >
          {starting ? 'Starting…' : `Start ${TRIALS[form.trial].label.toLowerCase()} trial`}
        </button>
        <span className="hint">
          {running
            ? 'A trial on this profile is running; cancel it below or wait for its results.'
            : check.blocked !== undefined
              ? check.blocked
              : 'Writes keys under cacheboard:trial:<run>: only, and removes them when it ends, however it ends.'}
        </span>
        <ErrorAlert error={error} title="Could not start:" />
      </div>
    </section>
  );
}
