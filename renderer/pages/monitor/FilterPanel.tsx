import { useId, type FormEvent } from 'react';
import { TextField } from '../../components/TextField';
import type { FilterControl, FilterForm } from './filterForm';

interface Props {
  draft: FilterForm;
  onDraft(f: FilterForm): void;
  /** The filter the panes watch with. */
  applied: FilterForm;
  onApply(): void;
  running: boolean;
  /** The server's messages for refused values, by control. */
  errors: Partial<Record<FilterControl, string>>;
}

const FIELDS: readonly { control: FilterControl; label: string; hint: string; placeholder?: string; numeric?: boolean }[] = [
  { control: 'commands', label: 'Commands', hint: 'Names, by spaces or commas', placeholder: 'GET SET HSET' },
  { control: 'keyGlob', label: 'Key pattern', hint: 'Glob over the key: * ? [abc]', placeholder: 'user:*' },
  { control: 'client', label: 'Client', hint: 'Address contains', placeholder: '10.0.0.7' },
  { control: 'db', label: 'DB', hint: 'Every DB when empty', placeholder: 'all', numeric: true },
  { control: 'sampleEvery', label: 'Keep 1 in', hint: 'Sampling of the matches', numeric: true },
];

/** The server-side filter: what each node sends this page. Applying it watches anew. */
export function FilterPanel({ draft, onDraft, applied, onApply, running, errors }: Props) {
  const ownId = useId();
  const changed = JSON.stringify(draft) !== JSON.stringify(applied);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply();
  };
  return (
    <form className="panel mon-filters" onSubmit={submit} aria-label="Filters" data-testid="monitor-filters">
      {FIELDS.map((f) => (
        <TextField
          key={f.control}
          label={f.label}
          field={`filter.${f.control}`}
          className={`mon-field mon-field-${f.control}`}
          value={draft[f.control]}
          onChange={(value) => onDraft({ ...draft, [f.control]: value })}
          error={draft[f.control] === applied[f.control] ? errors[f.control] : undefined}
          hint={f.hint}
          placeholder={f.placeholder}
          numeric={f.numeric}
          mono={!f.numeric}
          testId={`monitor-filter-${f.control}`}
        />
      ))}
      <div className="field field-check mon-field-own">
        <input
          id={ownId}
          type="checkbox"
          checked={draft.hideOwn}
          onChange={(e) => onDraft({ ...draft, hideOwn: e.target.checked })}
          data-testid="monitor-filter-hideOwn"
        />
        <label htmlFor={ownId}>Hide Cacheboard’s own traffic</label>
        <span className="hint">INFO polls, CLIENT LIST…</span>
      </div>
      <div className="mon-filter-actions">
        <button type="submit" className={`btn${changed && running ? ' btn-primary' : ''}`} disabled={!changed} data-testid="monitor-apply">
          Apply filters
        </button>
        {changed && <span className="hint">{running ? 'Applying watches anew.' : 'Used by the next start.'}</span>}
      </div>
    </form>
  );
}
