import { useId, useState } from 'react';
import { KeyType } from '../../../app/schemas/sampling';
import { FieldError } from '../../components/FieldError';
import { typedBytes } from './typedName';

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
      <form
        className="keys-find-row"
        onSubmit={(e) => {
          e.preventDefault();
          const r = typedBytes(name);
          if (r.error !== undefined) return setNameError(r.error);
          if (name === '') return setNameError('type a key name to open');
          setNameError(undefined);
          onOpen(r.b64);
        }}
      >
        <label htmlFor={`${uid}-name`} className="keys-find-label">
          Key
        </label>
        <input
          id={`${uid}-name`}
          type="text"
          className="mono keys-find-input"
          value={name}
          placeholder="exact name, e.g. session:42 or bin:\xff"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={nameError !== undefined}
          aria-describedby={nameError === undefined ? undefined : `${uid}-name-error`}
          onChange={(e) => {
            setName(e.target.value);
            setNameError(undefined);
          }}
          data-testid="keys-exact"
        />
        <button type="submit" className="btn btn-small" data-testid="keys-exact-open" title="Open this exact key (EXISTS/TYPE, no scan)">
          Open
        </button>
        {onNew !== undefined && (
          <button type="button" className="btn btn-small" onClick={onNew} data-testid="keys-new" title="Create a key of any type">
            New key
          </button>
        )}
        <FieldError field="key" id={`${uid}-name-error`} message={nameError} />
      </form>
      <form
        className="keys-find-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (parsed.error === undefined) onPattern(text === '' ? '*' : text);
        }}
      >
        <label htmlFor={`${uid}-match`} className="keys-find-label">
          Match
        </label>
        <input
          id={`${uid}-match`}
          type="text"
          className="mono keys-find-input"
          value={text}
          placeholder="glob, e.g. user:*:cart"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={parsed.error !== undefined}
          aria-describedby={parsed.error === undefined ? undefined : `${uid}-match-error`}
          onChange={(e) => setDraft({ from: pattern, text: e.target.value })}
          data-testid="keys-match"
        />
        <button type="submit" className="btn btn-small" disabled={parsed.error !== undefined} data-testid="keys-match-find">
          Find
        </button>
        <FieldError field="match" id={`${uid}-match-error`} message={parsed.error} />
      </form>
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
