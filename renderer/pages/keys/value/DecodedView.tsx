import { useState } from 'react';
import type { CallInput } from '../../../../app/contract';
import { useCall } from '../../../bridge/useCall';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatBytes } from '../../../lib/format';
import { TextRows } from './TextRows';
import type { Where } from './viewProps';

type As = CallInput<'keys.decode'>['as'];
const FORMATS: { value: As; label: string }[] = [
  { value: 'auto', label: 'auto' },
  { value: 'json', label: 'JSON' },
  { value: 'msgpack', label: 'msgpack' },
  { value: 'php', label: 'PHP' },
  { value: 'pickle', label: 'pickle' },
  { value: 'java', label: 'Java' },
  { value: 'protobuf', label: 'protobuf' },
  { value: 'text', label: 'text' },
];

/**
 * The value decompressed and decoded on the server, in a worker, capped: a hostile blob costs
 * this page only the capped text it sends back, shown as text.
 */
export function DecodedView({ where, version }: { where: Where; version: number }) {
  const [as, setAs] = useState<As>('auto');
  const r = useCall('keys.decode', { ...where, as });
  const d = r.data;
  return (
    <div className="kv-decoded" data-testid="kv-decoded" data-version={version}>
      <div className="kv-view-bar">
        <label className="kv-inline-field">
          Decode as{' '}
          <select value={as} onChange={(e) => setAs(e.target.value as As)} data-testid="kv-decode-as">
            {FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-small" onClick={r.refresh} disabled={r.loading}>
          Decode again
        </button>
        {r.loading && <span className="muted">Decoding…</span>}
      </div>
      <ErrorAlert error={r.error} title="Could not decode:" />
      {d !== undefined && (
        <>
          <p className="kv-decode-facts" data-testid="kv-decode-facts">
            <span>
              format <strong>{d.format}</strong>
            </span>
            <span>
              compression <strong>{d.compression ?? 'none'}</strong>
            </span>
            <span>
              {formatBytes(d.inputBytes)} in → {formatBytes(d.decodedBytes)} out
            </span>
            {d.truncated && <span className="tag tag-warn">text capped</span>}
          </p>
          {d.error !== null && (
            <div className="alert alert-error" role="alert" data-testid="kv-decode-error">
              {d.error}
            </div>
          )}
          {d.text !== '' && <TextRows text={d.text} testId="kv-decoded-text" label="Decoded value" />}
        </>
      )}
    </div>
  );
}
