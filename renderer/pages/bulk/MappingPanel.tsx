import { useId, useRef } from 'react';
import { FieldError } from '../../components/FieldError';
import { TextField } from '../../components/TextField';
import {
  FORMATS,
  formatNames,
  insertColumn,
  isTabular,
  RECORD_TYPES,
  recordTypes,
  type Control,
  type InputFormat,
  type MappingValues,
  type RecordType,
} from './setup';

interface Props {
  format: InputFormat | '';
  onFormat(f: InputFormat | ''): void;
  /** What "auto" resolves to: the server's answer, else the extension. */
  detected: InputFormat | undefined;
  hasFile: boolean;
  mapping: MappingValues;
  onMapping(patch: Partial<MappingValues>): void;
  columns: readonly string[];
  errors: Partial<Record<Control, string>>;
}

const FORMAT_HINT: Partial<Record<InputFormat, string>> = {
  resp: 'Raw RESP, as redis-cli --pipe reads it. Sent as is.',
  commands: 'One command per line, redis-cli syntax; quotes and escapes as redis-cli takes them.',
};

/** Step 2: the input format and, for tabular input, how each record becomes a key. */
export function MappingPanel({ format, onFormat, detected, hasFile, mapping, onMapping, columns, errors }: Props) {
  const uid = useId();
  const keyRef = useRef<HTMLInputElement>(null);
  const listId = `${uid}-columns`;
  const effective = format === '' ? detected : format;
  const tabular = isTabular(effective);
  const t = mapping.type;

  function insert(col: string) {
    const el = keyRef.current;
    const { text, caret } = insertColumn(mapping.key, col, el?.selectionStart, el?.selectionEnd);
    onMapping({ key: text });
    // After React has written the new value: put the caret after the inserted column.
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(caret, caret);
    });
  }

  const column = (key: 'value' | 'member' | 'score', label: string, control: Control, placeholder: string) => (
    <TextField
      label={label}
      field={control}
      value={mapping[key]}
      onChange={(v) => onMapping({ [key]: v })}
      error={errors[control]}
      list={listId}
      placeholder={placeholder}
      mono
    />
  );

  return (
    <section className="panel bulk-step bulk-mapping" aria-labelledby={`${uid}-title`}>
      <header className="bulk-step-head">
        <h2 id={`${uid}-title`}>
          <span className="bulk-step-no">2</span> Format &amp; mapping
        </h2>
      </header>
      <div className="bulk-form-row">
        <div className="field bulk-format">
          <label htmlFor={`${uid}-format`}>Format</label>
          <select id={`${uid}-format`} value={format} aria-invalid={errors.format !== undefined} onChange={(e) => onFormat(e.target.value as InputFormat | '')}>
            <option value="">auto{detected !== undefined ? ` (${detected})` : ' — from the extension'}</option>
            {formatNames.map((f) => (
              <option key={f} value={f}>
                {FORMATS[f]}
              </option>
            ))}
          </select>
          <FieldError field="format" id={`${uid}-format-error`} message={errors.format} />
        </div>
        {effective !== undefined && FORMAT_HINT[effective] !== undefined && <p className="hint bulk-format-hint">{FORMAT_HINT[effective]}</p>}
      </div>

      {tabular && (
        <div className="bulk-mapping-fields">
          {columns.length > 0 && (
            <datalist id={listId}>
              {columns.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          )}
          <TextField
            label="Key template"
            field="mapping.key"
            className="bulk-key"
            value={mapping.key}
            onChange={(key) => onMapping({ key })}
            error={errors['mapping.key']}
            placeholder="user:{id}"
            inputRef={keyRef}
            mono
            hint={columns.length === 0 ? 'Columns appear here once the preview has read the header.' : undefined}
          />
          {columns.length > 0 && (
            <div className="bulk-chips" role="group" aria-label="Columns">
              <span className="bulk-chips-label">Columns</span>
              {columns.map((c) => (
                <button key={c} type="button" className="bulk-chip" title={`Insert {${c}} into the key template`} onClick={() => insert(c)}>
                  {c}
                </button>
              ))}
            </div>
          )}
          <div className="bulk-form-row bulk-mapping-row">
            <div className="field bulk-type">
              <label htmlFor={`${uid}-type`}>Type</label>
              <select
                id={`${uid}-type`}
                value={t}
                aria-invalid={errors['mapping.type'] !== undefined}
                onChange={(e) => onMapping({ type: e.target.value as RecordType })}
              >
                {recordTypes.map((r) => (
                  <option key={r} value={r}>
                    {RECORD_TYPES[r]}
                  </option>
                ))}
              </select>
              <FieldError field="mapping.type" id={`${uid}-type-error`} message={errors['mapping.type']} />
            </div>
            {t === 'string' && column('value', 'Value column', 'mapping.value', 'name')}
            {t === 'hash' && (
              <TextField
                label="Fields"
                field="mapping.fields"
                className="bulk-fields"
                value={mapping.fields}
                onChange={(fields) => onMapping({ fields })}
                error={errors['mapping.fields']}
                placeholder="all other columns"
                hint="Comma-separated; optional"
                mono
              />
            )}
            {(t === 'set' || t === 'list' || t === 'zset') && column('member', 'Member column', 'mapping.member', 'member')}
            {t === 'zset' && column('score', 'Score column', 'mapping.score', 'score')}
            <TextField
              label="TTL (seconds)"
              field="mapping.ttl"
              className="bulk-ttl"
              value={mapping.ttl}
              onChange={(ttl) => onMapping({ ttl })}
              error={errors['mapping.ttl']}
              placeholder="none"
              numeric
            />
          </div>
        </div>
      )}
      {effective === undefined && (
        <p className="hint">
          {hasFile ? 'The file name does not tell the format: choose one.' : 'Pick a file; its extension decides the format unless you choose one.'}
        </p>
      )}
    </section>
  );
}
