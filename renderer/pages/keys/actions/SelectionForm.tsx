import { useId } from 'react';
import { KeyType } from '../../../../app/schemas/sampling';
import { CheckField } from '../../../components/CheckField';
import { Choices } from '../../../components/Choices';
import { FieldError } from '../../../components/FieldError';
import { TextField } from '../../../components/TextField';
import type { ActionForm, ActionTarget, Control, PageOp, TtlFilter } from './actionForm';
import { bytesText, secondsText } from './actionText';

interface Props {
  target: ActionTarget;
  form: ActionForm;
  onChange(patch: Partial<ActionForm>): void;
  /** The server's refusal, beside the input its field names. */
  errors: Partial<Record<Control, string>>;
}

const OPS: readonly { value: PageOp; label: string; detail: string }[] = [
  { value: 'delete', label: 'Delete', detail: 'UNLINK each key: gone at once, its memory freed in the background.' },
  { value: 'expire', label: 'Set TTL', detail: 'EXPIRE each key in a number of seconds, optionally only where it has none.' },
  { value: 'persist', label: 'Persist', detail: 'PERSIST each key: its TTL is removed, it stays until deleted.' },
];

const TTL_FILTERS: readonly { value: TtlFilter; label: string }[] = [
  { value: 'any', label: 'any TTL or none' },
  { value: 'none', label: 'no TTL' },
  { value: 'below', label: 'TTL below…' },
  { value: 'above', label: 'TTL above…' },
];

/** Which keys (the glob and its filters) and what to do to them: the dialog's first step. */
export function SelectionForm({ target, form, onChange, errors }: Props) {
  const uid = useId();
  const bounded = form.ttl === 'below' || form.ttl === 'above';
  return (
    <div className="ka-setup">
      <fieldset className="ka-col">
        <legend>Which keys</legend>
        <div className="field">
          <span className="ka-label">Pattern ({target.source === 'folder' ? 'the folder' : 'the list'})</span>
          {/* The glob as the find bar shows it: escaped text, never markup. */}
          <span className="mono ka-pattern" data-testid="ka-pattern">
            {target.match}
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${uid}-type`}>Type</label>
          <select
            id={`${uid}-type`}
            value={form.type}
            onChange={(e) => onChange({ type: e.target.value === '' ? '' : KeyType.parse(e.target.value) })}
            data-testid="ka-type"
          >
            <option value="">any type</option>
            {KeyType.options.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <FieldError field="selection.type" id={`${uid}-type-error`} message={errors['selection.type']} />
        </div>
        <div className="ka-row">
          <div className="field">
            <label htmlFor={`${uid}-ttl`}>TTL</label>
            <select id={`${uid}-ttl`} value={form.ttl} onChange={(e) => onChange({ ttl: e.target.value as TtlFilter })} data-testid="ka-ttl">
              {TTL_FILTERS.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </div>
          {bounded && (
            <TextField
              label="Seconds"
              field="selection.ttlSeconds"
              value={form.ttlSeconds}
              onChange={(ttlSeconds) => onChange({ ttlSeconds })}
              error={errors['selection.ttlSeconds']}
              hint={form.ttlSeconds.trim() === '' ? undefined : secondsText(form.ttlSeconds)}
              testId="ka-ttl-seconds"
              numeric
            />
          )}
        </div>
        <div className="ka-row">
          <TextField
            label="Idle at least (s)"
            field="selection.idleMinSeconds"
            value={form.idleMin}
            onChange={(idleMin) => onChange({ idleMin })}
            error={errors['selection.idleMinSeconds']}
            placeholder="any"
            hint={form.idleMin.trim() === '' ? 'OBJECT IDLETIME' : secondsText(form.idleMin)}
            testId="ka-idle"
            numeric
          />
          <TextField
            label="Memory at least (bytes)"
            field="selection.minMemoryBytes"
            value={form.minMemory}
            onChange={(minMemory) => onChange({ minMemory })}
            error={errors['selection.minMemoryBytes']}
            placeholder="any"
            hint={form.minMemory.trim() === '' ? 'MEMORY USAGE' : bytesText(form.minMemory)}
            testId="ka-memory"
            numeric
          />
        </div>
      </fieldset>
      <fieldset className="ka-col">
        <legend>What to do</legend>
        <Choices
          legend="Action"
          field="action.op"
          options={OPS}
          value={form.op}
          onChange={(op) => onChange({ op })}
          error={undefined}
          testIdPrefix="ka-op"
          className="ka-ops"
        />
        {form.op === 'expire' && (
          <div className="ka-expire">
            <div className="ka-row">
              <TextField
                label="Expire in (s)"
                field="action.seconds"
                value={form.seconds}
                onChange={(seconds) => onChange({ seconds })}
                error={errors['action.seconds']}
                placeholder="3600"
                hint={form.seconds.trim() === '' ? undefined : secondsText(form.seconds)}
                testId="ka-seconds"
                numeric
              />
              <TextField
                label="Jitter (%)"
                field="action.jitterPct"
                value={form.jitter}
                onChange={(jitter) => onChange({ jitter })}
                error={errors['action.jitterPct']}
                placeholder="0"
                hint="spreads each TTL by ± this share"
                testId="ka-jitter"
                numeric
              />
            </div>
            <CheckField
              label="Only keys with no TTL (EXPIRE NX, Redis 7.0+)"
              field="action.onlyNoTtl"
              checked={form.onlyNoTtl}
              onChange={(onlyNoTtl) => onChange({ onlyNoTtl })}
              testId="ka-nx"
            />
          </div>
        )}
        <CheckField
          label="Full speed: no latency budget"
          field="pace.maxLatencyMs"
          checked={form.fullSpeed}
          onChange={(fullSpeed) => onChange({ fullSpeed })}
          error={errors['pace.maxLatencyMs']}
          testId="ka-full-speed"
        />
        <span className="hint">
          {form.fullSpeed
            ? 'The run goes as fast as the server answers: other clients may wait.'
            : 'Paced: the run slows down when PING’s p99 rises 2 ms over idle, and waits while a replica lags.'}
        </span>
      </fieldset>
    </div>
  );
}
