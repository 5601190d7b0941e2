import { useState } from 'react';
import type { CallInput } from '../../../../app/contract';
import type { AppError } from '../../../../app/errors';
import { useBridge } from '../../../bridge/BridgeContext';
import { toAppError } from '../../../bridge/toAppError';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { allTyped, EscapedField } from '../../../components/EscapedField';

type Create = Extract<CallInput<'keys.edit'>['edit'], { op: 'create' }>;
type NewType = Create['type'];

const TYPES: { value: NewType; first: string; field?: string }[] = [
  { value: 'string', first: 'Value' },
  { value: 'hash', first: 'Value', field: 'Field' },
  { value: 'list', first: 'First item' },
  { value: 'set', first: 'First member' },
  { value: 'zset', first: 'First member' },
  { value: 'stream', first: 'Value', field: 'Field' },
];

interface Props {
  profileId: string;
  db: number;
  /** The new key's bytes, base64: the page opens it. */
  onCreated(keyB64: string): void;
  onCancel?(): void;
}

/**
 * A new key of any type with its first element (Redis has no empty collection), and an
 * optional TTL. The server refuses a name that exists: create never overwrites.
 */
export function NewKeyForm({ profileId, db, onCreated, onCancel }: Props) {
  const bridge = useBridge();
  const [type, setType] = useState<NewType>('string');
  const [name, setName] = useState('');
  const [field, setField] = useState('');
  const [value, setValue] = useState('');
  const [score, setScore] = useState('0');
  const [ttl, setTtl] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError>();
  const spec = TYPES.find((t) => t.value === type) ?? TYPES[0];
  const typed = allTyped(name, field, value);
  const ttlOk = ttl.trim() === '' || /^[1-9]\d*$/.test(ttl.trim());
  const scoreOk = type !== 'zset' || /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$|^[+-]?inf$/i.test(score.trim());
  const ready = typed !== undefined && name !== '' && ttlOk && scoreOk && (spec?.field === undefined || field !== '') && !busy;

  async function create() {
    if (!ready || typed === undefined) return;
    const [keyB64, fieldB64, valueB64] = typed as [string, string, string];
    const edit: Create = {
      op: 'create',
      type,
      value: valueB64,
      ttlSeconds: ttl.trim() === '' ? null : Number(ttl.trim()),
      ...(spec?.field !== undefined ? { field: fieldB64 } : {}),
      ...(type === 'zset' ? { score: score.trim() } : {}),
    };
    setBusy(true);
    setError(undefined);
    try {
      await bridge.invoke('keys.edit', { profileId, db, key: keyB64, edit });
      onCreated(keyB64);
    } catch (e) {
      setError(toAppError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="kv-new panel"
      aria-label="New key"
      data-testid="kv-new"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <h2>New key</h2>
      <div className="kv-form">
        <div className="field">
          <label htmlFor="kv-new-type">Type</label>
          <select id="kv-new-type" value={type} onChange={(e) => setType(e.target.value as NewType)} data-testid="kv-new-type">
            {TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.value}
              </option>
            ))}
          </select>
        </div>
        <EscapedField label="Name" value={name} onChange={setName} testId="kv-new-name" className="kv-grow" placeholder="user:42 (escapes: \xff, \n)" />
        <div className="field kv-score">
          <label htmlFor="kv-new-ttl">TTL (s)</label>
          <input
            id="kv-new-ttl"
            type="text"
            inputMode="numeric"
            value={ttl}
            placeholder="none"
            onChange={(e) => setTtl(e.target.value)}
            aria-invalid={!ttlOk}
            data-testid="kv-new-ttl"
          />
        </div>
      </div>
      <div className="kv-form">
        {spec?.field !== undefined && <EscapedField label={spec.field} value={field} onChange={setField} testId="kv-new-field" className="kv-grow" />}
        <EscapedField label={spec?.first ?? 'Value'} value={value} onChange={setValue} testId="kv-new-value" className="kv-grow2" />
        {type === 'zset' && (
          <div className="field kv-score">
            <label htmlFor="kv-new-score">Score</label>
            <input
              id="kv-new-score"
              type="text"
              className="mono"
              value={score}
              onChange={(e) => setScore(e.target.value)}
              aria-invalid={!scoreOk}
              data-testid="kv-new-score"
            />
          </div>
        )}
      </div>
      {!ttlOk && <span className="field-error">TTL: a whole number of seconds, 1 or more, or empty for none</span>}
      <ErrorAlert error={error} title="Not created:" />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={!ready} data-testid="kv-new-create">
          {busy ? 'Creating…' : 'Create key'}
        </button>
        {onCancel !== undefined && (
          <button type="button" className="btn btn-small" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
