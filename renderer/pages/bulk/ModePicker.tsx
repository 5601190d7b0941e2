import { useId } from 'react';
import { FieldError } from '../../components/FieldError';
import type { LoadMode } from './setup';
import type { ModeOption } from './clusterModes';

interface Props {
  options: readonly ModeOption[];
  value: LoadMode;
  onChange(mode: LoadMode): void;
  error: string | undefined;
}

/** The load modes as radio cards; a mode the profile refuses is disabled and says why in place of what it does. */
export function ModePicker({ options, value, onChange, error }: Props) {
  const uid = useId();
  return (
    <fieldset className="choices bulk-modes" aria-invalid={error !== undefined}>
      <legend>Mode</legend>
      {options.map(({ value: mode, label, detail, refused }) => {
        const id = `${uid}-${mode}`;
        const on = value === mode;
        return (
          <div key={mode} className={`choice${on ? ' is-on' : ''}`}>
            <input
              id={id}
              type="radio"
              name={uid}
              value={mode}
              checked={on}
              disabled={refused !== undefined}
              aria-describedby={`${id}-desc`}
              onChange={() => onChange(mode)}
              data-testid={`bulk-mode-${mode}`}
            />
            <label htmlFor={id}>{label}</label>
            <span id={`${id}-desc`} className="choice-desc" data-testid={refused === undefined ? undefined : `bulk-mode-${mode}-refused`}>
              {refused ?? detail}
            </span>
          </div>
        );
      })}
      <FieldError field="mode" id={`${uid}-error`} message={error} />
    </fieldset>
  );
}
