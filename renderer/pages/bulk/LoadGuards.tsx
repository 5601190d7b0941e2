import { useId } from 'react';
import { FieldError } from '../../components/FieldError';
import type { Control, TargetValues } from './setup';

type Guard = 'allowEmpty' | 'allowEvictionRisk';

interface Props {
  values: TargetValues;
  onChange(patch: Partial<TargetValues>): void;
  errors: Partial<Record<Control, string>>;
}

/**
 * The two opt-ins beside the mode: a load that would empty (or halve) the
 * live DB, or that may make Redis evict, is refused unless ticked here. A
 * refusal names the option in its `field`, so its message lands under the box.
 */
export function LoadGuards({ values: v, onChange, errors }: Props) {
  const uid = useId();
  const replaces = v.mode !== 'merge';
  const check = (key: Guard, label: string, hint: string, disabled = false) => (
    <div className="field field-check">
      <input
        id={`${uid}-${key}`}
        type="checkbox"
        checked={v[key]}
        disabled={disabled}
        aria-describedby={`${uid}-${key}-hint`}
        aria-invalid={errors[key] !== undefined}
        data-testid={`bulk-${key}`}
        onChange={(e) => onChange({ [key]: e.target.checked })}
      />
      <label htmlFor={`${uid}-${key}`}>{label}</label>
      <span id={`${uid}-${key}-hint`} className="hint">
        {hint}
      </span>
      <FieldError field={key} id={`${uid}-${key}-error`} message={errors[key]} />
    </div>
  );
  return (
    <div className="bulk-guards">
      {check(
        'allowEmpty',
        'Allow an empty or much smaller DB',
        replaces
          ? 'Otherwise a load that would leave the live DB empty, or with under half its keys (swap), is refused.'
          : 'Merge only adds keys: nothing to guard.',
        !replaces,
      )}
      {check(
        'allowEvictionRisk',
        'Start even if Redis may evict',
        'When the data may not fit under maxmemory and the policy evicts. The load still stops at the first eviction.',
      )}
    </div>
  );
}
