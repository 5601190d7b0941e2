import { useState } from 'react';
import type { CallInput } from '../../../../app/contract';
import { useCall } from '../../../bridge/useCall';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatBytes } from '../../../lib/format';
import { TextRows } from '../../../components/bytes/TextRows';
import type { Where } from './viewProps';

type As = CallInput<'keys.decode'>['as'];
type Undo = CallInput<'keys.decode'>['compression'];
/** Brotli and raw snappy carry no magic bytes: `auto` cannot find them, naming them can. */
const COMPRESSIONS: Undo[] = ['auto', 'none', 'gzip', 'deflate', 'brotli', 'zstd', 'lz4', 'snappy'];
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
  const [compression, setCompression] = useState<Undo>('auto');
  const r = useCall('keys.decode', { ...where, as, compression });
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
        <label className="kv-inline-field">
          decompress{' '}
          <select value={compression} onChange={(e) => setCompression(e.target.value as Undo)} data-testid="kv-decode-compression">
            {COMPRESSIONS.map((c) => (
              <option key={c} value={c}>
                {c === 'auto' ? 'auto (magic bytes)' : c}
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
              {formatBytes(d.inputBytes)} read{d.inputBytes < d.valueBytes ? ` of ${formatBytes(d.valueBytes)}` : ''} → {formatBytes(d.decodedBytes)} decoded
            </span>
            {d.truncated && (
              <span className="tag tag-warn" title="The text hit its cap, or only the first bytes of a longer value were read">
                partial
              </span>
            )}
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
