import { useId, type ReactNode, type Ref } from 'react';
import { FieldError } from './FieldError';

interface Props {
  label: string;
  value: string;
  onChange(value: string): void;
  /** The contract path errors use for this input; also the FieldError test id. */
  field: string;
  error: string | undefined;
  placeholder?: string;
  hint?: ReactNode;
  /** id of a <datalist> of suggestions. */
  list?: string;
  numeric?: boolean;
  mono?: boolean;
  className?: string;
  testId?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled text input with the server's error for it right beneath. */
export function TextField(p: Props) {
  const id = useId();
  const errId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [p.error !== undefined ? errId : undefined, p.hint !== undefined ? hintId : undefined].filter(Boolean).join(' ');
  return (
    <div className={`field ${p.className ?? ''}`}>
      <label htmlFor={id}>{p.label}</label>
      <input
        id={id}
        ref={p.inputRef}
        type="text"
        className={p.mono ? 'mono' : undefined}
        value={p.value}
        list={p.list}
        placeholder={p.placeholder}
        inputMode={p.numeric ? 'numeric' : undefined}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={p.error !== undefined}
        aria-describedby={describedBy === '' ? undefined : describedBy}
        data-testid={p.testId}
        onChange={(e) => p.onChange(e.target.value)}
      />
      <FieldError field={p.field} id={errId} message={p.error} />
      {p.hint !== undefined && (
        <span className="hint" id={hintId}>
          {p.hint}
        </span>
      )}
    </div>
  );
}
