import { TextField } from '../../components/TextField';
import { CheckField } from '../../components/CheckField';
import { INPUTS, type Control, type TrialForm, type TrialInputs } from './form';

interface Props {
  form: TrialForm;
  profileDb: number;
  change(patch: Partial<TrialForm>): void;
  /** The message to show beside a control, if any. */
  errorOf(control: Control): string | undefined;
}

/** The chosen trial's numbers, the DB, the sweep, the latency proxy and the confirmation for a DB with keys. */
export function TrialFields({ form, profileDb, change, errorOf }: Props) {
  // Only the chosen trial's inputs change; the others keep what was typed for them.
  const setInput = (name: string, value: string) =>
    change({ inputs: { ...form.inputs, [form.trial]: { ...form.inputs[form.trial], [name]: value } } as TrialInputs });
  const inputs: Record<string, string> = form.inputs[form.trial];
  const multiplex = form.trial === 'multiplex';

  return (
    <div className="trial-form">
      <div className="trial-fields">
        <TextField
          label={multiplex ? 'First DB' : 'DB'}
          field="db"
          className="trial-field"
          value={form.db}
          onChange={(db) => change({ db })}
          error={errorOf('db')}
          hint={`empty: the profile's (db${profileDb})`}
          placeholder={String(profileDb)}
          numeric
          testId="trials-db"
        />
        {INPUTS[form.trial].map((input) => (
          <TextField
            key={`${form.trial}-${input.name}`}
            label={input.label}
            field={input.name}
            className="trial-field"
            value={inputs[input.name] ?? ''}
            onChange={(value) => setInput(input.name, value)}
            error={errorOf(input.name as Control)}
            hint={input.name === 'sweepN' && !form.sweep ? 'the sweep is off' : input.hint}
            numeric
            testId={`trials-${input.name}`}
          />
        ))}
      </div>
      <div className="trial-options">
        {form.trial === 'pipeline' && (
          <CheckField
            label="Sweep MULTI sizes 1 to 100, plain against pipelined"
            field="sweep"
            checked={form.sweep}
            onChange={(sweep) => change({ sweep })}
            error={errorOf('sweep')}
            testId="trials-sweep"
          />
        )}
        <CheckField
          label="Through a latency proxy, adding a delay each way"
          field="latencyMs"
          checked={form.proxy}
          onChange={(proxy) => change({ proxy })}
          testId="trials-proxy"
        />
        {form.proxy && (
          <TextField
            label="Delay each way (ms)"
            field="latencyMs"
            className="trial-field trial-delay"
            value={form.latencyMs}
            onChange={(latencyMs) => change({ latencyMs })}
            error={errorOf('latencyMs')}
            hint="0.3 is a LAN hop; 0 measures the proxy alone"
            testId="trials-latencyMs"
          />
        )}
        <CheckField
          label="Run even if the DB holds keys of its own (only scratch keys are written and removed)"
          field="confirmNonEmpty"
          checked={form.confirmNonEmpty}
          onChange={(confirmNonEmpty) => change({ confirmNonEmpty })}
          error={errorOf('confirmNonEmpty')}
          testId="trials-confirm"
        />
      </div>
    </div>
  );
}
