import { useId } from 'react';
import { FieldError } from '../../components/FieldError';
import type { AttributeInfo } from '../../../app/schemas/audience';
import { unknownText } from './expression';
import { ParseError } from './ParseError';
import type { ParseState } from './useParse';

interface Props {
  value: string;
  onChange(value: string): void;
  parse: ParseState;
  /** The server's refusal of `where` when a run was started. */
  error: string | undefined;
  /** The attributes discovered, to tell an unknown attribute from an unknown value. */
  known: readonly AttributeInfo[] | undefined;
}

/** The expression as text: typed or written by the chips, checked live, errors shown at their position. */
export function WhereField({ value, onChange, parse, error, known }: Props) {
  const id = useId();
  const r = parse.result;
  const current = !parse.pending && value.trim() !== '';
  return (
    <div className="field aud-where">
      <label htmlFor={id}>Expression</label>
      <textarea
        id={id}
        className="mono"
        rows={2}
        value={value}
        spellCheck={false}
        autoComplete="off"
        placeholder="gender=f AND age=25-34 AND (region=NE OR region=MA) AND NOT interest=golf"
        aria-invalid={error !== undefined || (current && r?.valid === false)}
        aria-describedby={`${id}-status`}
        data-testid="aud-where"
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldError field="where" id={`${id}-error`} message={error} />
      <div id={`${id}-status`} className="aud-parse" aria-live="polite" data-testid="aud-parse" data-state={parseState(value, parse)}>
        {value.trim() === '' ? (
          <span className="hint">AND, OR, NOT and parentheses over name=value terms; AND binds tighter than OR. Pick values above or type.</span>
        ) : parse.pending ? (
          <span className="hint">Checking…</span>
        ) : parse.error !== undefined ? (
          <span className="hint-warn">Could not check the expression: {parse.error.message}</span>
        ) : r === undefined ? null : r.error !== undefined ? (
          <ParseError text={parse.checked} error={r.error} />
        ) : (
          <>
            <span className="aud-parse-ok">
              ✓ reads as{' '}
              <span className="mono" data-testid="aud-normalized">
                {r.normalized ?? value}
              </span>
            </span>
            {r.unknown.length > 0 && (
              <p className="aud-unknown" role="alert" data-testid="aud-unknown">
                <strong>Not on this server (no key in any layout):</strong>
                {r.unknown.map((t) => (
                  <span key={`${t.name}\u0000${t.value}`} className="aud-unknown-term">
                    {unknownText(t, known)}
                  </span>
                ))}
              </p>
            )}
          </>
        )}
      </div>
    </div>
  );
}

function parseState(value: string, p: ParseState): string {
  if (value.trim() === '') return 'empty';
  if (p.pending) return 'checking';
  if (p.error !== undefined) return 'unchecked';
  if (p.result === undefined) return 'checking';
  if (!p.result.valid) return 'invalid';
  return p.result.unknown.length > 0 ? 'unknown' : 'valid';
}
