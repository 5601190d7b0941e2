import { useId, type ReactNode } from 'react';
import { FieldError } from './FieldError';

interface Props {
  label: ReactNode;
  /** The contract path errors use for this box; also the FieldError test id. */
  field: string;
  checked: boolean;
  onChange(checked: boolean): void;
  error?: string | undefined;
  testId: string;
  className?: string;
  /** Inputs that belong to the box (the proxy's delay), on its line. */
  children?: ReactNode;
}

/** A labelled checkbox with the server's error for it beneath. */
export function CheckField({ label, field, checked, onChange, error, testId, className, children }: Props) {
  const id = useId();
  return (
    <div className={`field field-check ${className ?? ''}`}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-invalid={error !== undefined}
        aria-describedby={error === undefined ? undefined : `${id}-error`}
        data-testid={testId}
      />
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldError field={field} id={`${id}-error`} message={error} />
    </div>
  );
}
