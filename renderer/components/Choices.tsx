import { useId } from 'react';
import { FieldError } from './FieldError';

interface Props<T extends string> {
  legend: string;
  /** The contract path errors use for this choice; also the FieldError test id. */
  field: string;
  options: readonly { value: T; label: string; detail: string }[];
  value: T;
  onChange(value: T): void;
  error: string | undefined;
  /** Each radio gets `${testIdPrefix}-${value}`. */
  testIdPrefix?: string;
  className?: string;
}

/** Radio cards: one of a few ways to run, each with a sentence on what it does. */
export function Choices<T extends string>({ legend, field, options, value, onChange, error, testIdPrefix, className }: Props<T>) {
  const uid = useId();
  return (
    <fieldset className={`choices ${className ?? ''}`} aria-invalid={error !== undefined}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <div key={o.value} className={`choice${value === o.value ? ' is-on' : ''}`}>
          <input
            id={`${uid}-${o.value}`}
            type="radio"
            name={uid}
            value={o.value}
            checked={value === o.value}
            aria-describedby={`${uid}-${o.value}-desc`}
            onChange={() => onChange(o.value)}
            data-testid={testIdPrefix === undefined ? undefined : `${testIdPrefix}-${o.value}`}
          />
          <label htmlFor={`${uid}-${o.value}`}>{o.label}</label>
          <span id={`${uid}-${o.value}-desc`} className="choice-desc">
            {o.detail}
          </span>
        </div>
      ))}
      <FieldError field={field} id={`${uid}-error`} message={error} />
    </fieldset>
  );
}
