import { useMemo, useState } from 'react';
import { parseEscaped } from '../../../app/keyText';
import type { PubSubMessage } from '../../../app/schemas/pubsub';
import { HexView } from '../../components/bytes/HexView';
import { JsonView } from '../../components/bytes/JsonView';
import { TextRows } from '../../components/bytes/TextRows';
import { Segmented } from '../../components/Segmented';
import { clockMs } from '../../lib/display';
import { formatBytes } from '../../lib/format';

type View = 'text' | 'json' | 'hex';
const VIEWS: { value: View; label: string }[] = [
  { value: 'text', label: 'Text' },
  { value: 'json', label: 'JSON' },
  { value: 'hex', label: 'Hex' },
];

/**
 * The payload's bytes, back from the escaped text the server sent: the escapes are
 * redis-cli's, which parseEscaped reads exactly, so the hex and JSON views see the bytes
 * the publisher sent (their first 4 KB when the payload was cut).
 */
function payloadBytes(m: PubSubMessage): Uint8Array {
  try {
    return parseEscaped(m.payload.text);
  } catch {
    return new TextEncoder().encode(m.payload.text);
  }
}

/** One message read whole: where it came from, and its payload as text, JSON or hex, as the Keys page shows a string. */
export function MessageDetail({ m }: { m: PubSubMessage | undefined }) {
  const [view, setView] = useState<View>('text');
  const bytes = useMemo(() => (m === undefined ? new Uint8Array() : payloadBytes(m)), [m]);
  if (m === undefined) return <p className="hint ps-detail-hint">Click a message to read its payload whole.</p>;
  const cut = m.payload.truncated;
  return (
    <section className="ps-detail" data-testid="pubsub-detail" aria-label="Message">
      <div className="ps-detail-head">
        <span className="mono muted">
          {clockMs(m.at)} · {m.node} · {m.kind}
        </span>
        <span className="ps-detail-name mono" data-testid="pubsub-detail-channel">
          {m.channel.text}
        </span>
        {m.pattern !== undefined && <span className="mono muted">matched {m.pattern.text}</span>}
        <span className="muted" data-testid="pubsub-detail-size">
          {cut ? `${formatBytes(m.payload.bytes)}, the first ${formatBytes(bytes.length)} shown` : formatBytes(m.payload.bytes)}
        </span>
        <span className="ps-spacer" />
        <Segmented label="View as" value={view} onChange={setView} options={VIEWS} testId="pubsub-view" />
      </div>
      {view === 'text' && <TextRows text={m.payload.text} testId="pubsub-text" label="Payload as text" />}
      {view === 'json' &&
        (cut ? (
          <p className="hint" data-testid="kv-json-why">
            The payload is {m.payload.bytes.toLocaleString('en-US')} bytes and only its first {bytes.length.toLocaleString('en-US')} came to this page: not
            enough to read as JSON.
          </p>
        ) : (
          <JsonView bytes={bytes} total={bytes.length} />
        ))}
      {view === 'hex' && <HexView bytes={bytes} />}
    </section>
  );
}
