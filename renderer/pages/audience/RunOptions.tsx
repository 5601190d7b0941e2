import { STRATEGY_NAMES } from '../../../app/schemas/audience';
import { TextField } from '../../components/TextField';
import { CheckField } from '../../components/CheckField';
import { STRATEGIES, toggleStrategy, type AudienceForm, type Control } from './form';

interface Props {
  form: AudienceForm;
  change(patch: Partial<AudienceForm>): void;
  errorOf(control: Control): string | undefined;
}

/** The date range, K and warm-up, and which strategies to time (the DB is in the Demo dataset box, above). */
export function RunOptions({ form, change, errorOf }: Props) {
  const field = (control: 'from' | 'to' | 'trials' | 'warmup', label: string, hint: string, placeholder?: string) => (
    <TextField
      label={label}
      field={control}
      className={`aud-field aud-field-${control}`}
      value={form[control]}
      onChange={(value) => change({ [control]: value })}
      error={errorOf(control)}
      hint={hint}
      placeholder={placeholder}
      numeric={control !== 'from' && control !== 'to'}
      mono={control === 'from' || control === 'to'}
      testId={`aud-${control}`}
    />
  );
  return (
    <div className="aud-options">
      <div className="aud-fields">
        {field('from', 'From', 'first day, included', 'YYYY-MM-DD')}
        {field('to', 'To', 'last day, included (3 years at most)', 'YYYY-MM-DD')}
        {field('trials', 'Trials (K)', 'timed runs per strategy')}
        {field('warmup', 'Warm-up', 'untimed runs first')}
      </div>
      <fieldset className="aud-strategies" aria-invalid={errorOf('strategies') !== undefined}>
        <legend>Strategies</legend>
        {STRATEGY_NAMES.map((name, i) => (
          <CheckField
            key={name}
            label={
              <>
                <span className="mono">{STRATEGIES[name].label}</span> <span className="muted">{STRATEGIES[name].detail}</span>
              </>
            }
            field="strategies"
            checked={form.strategies.includes(name)}
            onChange={(on) => change({ strategies: toggleStrategy(form.strategies, name, on) })}
            error={i === STRATEGY_NAMES.length - 1 ? errorOf('strategies') : undefined}
            testId={`aud-strategy-${name}`}
          />
        ))}
      </fieldset>
    </div>
  );
}
