import { useId, useState, type ReactNode } from 'react';
import { KeyType } from '../../../app/schemas/sampling';
import { FieldError } from '../../components/FieldError';
import { typedBytes } from './value/valueBytes';

export type ListSort = 'name' | 'ttl' | 'memory';

export interface Filters {
  type: KeyType | undefined;
  noTtl: boolean;
  sort: ListSort;
  order: 'asc' | 'desc';
}

export const NO_FILTERS: Filters = { type: undefined, noTtl: false, sort: 'name', order: 'asc' };

interface Props {
  /** The pattern the list shows (typed, escaped); a new one arrives when a folder is chosen. */
  pattern: string;
  onPattern(pattern: string): void;
  filters: Filters;
  onFilters(f: Filters): void;
  /** Open one key by its exact name: no scan, whatever the DB size. */
  onOpen(keyB64: string): void;
  /** Ops only: close the open key and show the new-key form in its place. */
  onNew?: (() => void) | undefined;
}

/**
 * Finding keys: an exact name opens at once; a glob pattern (typed escaped, like names are
 * shown: `\xff`, `\\`) with a type and a no-TTL filter lists matches (the list's column heads sort it). Patterns apply on Enter,
 * not per keystroke: each one may walk the keyspace.
 */
export function FindBar({ pattern, onPattern, filters, onFilters, onOpen, onNew }: Props) {
  const uid = useId();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  // The box follows the applied pattern (a folder click sets it) until the user edits it.
  const [draft, setDraft] = useState({ from: pattern, text: pattern });
  const text = draft.from === pattern ? draft.text : pattern;
  if (draft.from !== pattern) setDraft({ from: pattern, text: pattern });
  const parsed = typedBytes(text === '' ? '*' : text);

  return (
    <section className="keys-find" aria-label="Find keys">
      <FindRow
        label="Key"
        field="key"
        value={name}
        onChange={(v) => {
          setName(v);
          setNameError(undefined);
        }}
        error={nameError}
        placeholder="exact name, e.g. session:42 or bin:\xff"
        testId="keys-exact"
        onSubmit={() => {
          const r = typedBytes(name);
          if (!r.ok) return setNameError(r.error);
          if (name === '') return setNameError('type a key name to open');
          setNameError(undefined);
          onOpen(r.b64);
        }}
        button={{ label: 'Open', title: 'Open this exact key (EXISTS/TYPE, no scan)', testId: 'keys-exact-open' }}
      >
        {onNew !== undefined && (
          <button type="button" className="btn btn-small" onClick={onNew} data-testid="keys-new" title="Create a key of any type">
            New key
          </button>
        )}
      </FindRow>
      <FindRow
        label="Match"
        field="match"
        value={text}
        onChange={(v) => setDraft({ from: pattern, text: v })}
        error={parsed.ok ? undefined : parsed.error}
        placeholder="glob, e.g. user:*:cart"
        testId="keys-match"
        onSubmit={() => {
          if (parsed.ok) onPattern(text === '' ? '*' : text);
        }}
        button={{ label: 'Find', title: 'List the keys that match (SCAN MATCH syntax)', testId: 'keys-match-find', disabled: !parsed.ok }}
      />
      <div className="keys-find-row keys-filters">
        <label htmlFor={`${uid}-type`} className="keys-find-label">
          Type
        </label>
        <select
          id={`${uid}-type`}
          value={filters.type ?? ''}
          onChange={(e) => onFilters({ ...filters, type: e.target.value === '' ? undefined : KeyType.parse(e.target.value) })}
          data-testid="keys-type"
        >
          <option value="">any</option>
          {KeyType.options.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <label className="keys-check">
          <input type="checkbox" checked={filters.noTtl} onChange={(e) => onFilters({ ...filters, noTtl: e.target.checked })} data-testid="keys-nottl" />
          no TTL
        </label>
      </div>
    </section>
  );
}

interface RowProps {
  label: string;
  /** The FieldError test id's suffix. */
  field: string;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  placeholder: string;
  testId: string;
  onSubmit(): void;
  button: { label: string; title: string; testId: string; disabled?: boolean };
  children?: ReactNode;
}

/** One typed-escaped box with its button (Enter submits), and where its escape is wrong beneath. */
function FindRow({ label, field, value, onChange, error, placeholder, testId, onSubmit, button, children }: RowProps) {
  const id = useId();
  return (
    <form
      className="keys-find-row"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <label htmlFor={id} className="keys-find-label">
        {label}
      </label>
      <input
        id={id}
        type="text"
        className="mono keys-find-input"
        value={value}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={error !== undefined}
        aria-describedby={error === undefined ? undefined : `${id}-error`}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
      <button type="submit" className="btn btn-small" disabled={button.disabled} title={button.title} data-testid={button.testId}>
        {button.label}
      </button>
      {children}
      <FieldError field={field} id={`${id}-error`} message={error} />
    </form>
  );
}
