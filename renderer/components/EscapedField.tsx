import { useId } from 'react';
import { typedBytes } from '../lib/typedBytes';

interface Props {
  label: string;
  value: string;
  onChange(value: string): void;
  testId: string;
  placeholder?: string;
  /** A textarea, for a string's whole value. */
  multiline?: boolean;
  className?: string;
}

/**
 * Bytes typed as text with redis-cli escapes (`\xff`, `\n`, `\u202e`); a bad escape is named
 * with its position under the input, at once, before anything is sent.
 */
export function EscapedField({ label, value, onChange, testId, placeholder, multiline, className }: Props) {
  const id = useId();
  const parsed = typedBytes(value);
  const error = parsed.ok ? undefined : parsed.error;
  const common = {
    id,
    value,
    placeholder,
    spellCheck: false,
    autoComplete: 'off',
    className: 'mono',
    'aria-invalid': error !== undefined,
    'aria-describedby': error === undefined ? undefined : `${id}-error`,
    'data-testid': testId,
  };
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {multiline === true ? (
        <textarea {...common} rows={8} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type="text" onChange={(e) => onChange(e.target.value)} />
      )}
      {error !== undefined && (
        <span className="field-error" id={`${id}-error`} data-testid={`${testId}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

/** The base64 of typed fields, or undefined when any has a bad escape (the field says where). */
export function allTyped(...texts: string[]): string[] | undefined {
  const out: string[] = [];
  for (const t of texts) {
    const p = typedBytes(t);
    if (!p.ok) return undefined;
    out.push(p.b64);
  }
  return out;
}
