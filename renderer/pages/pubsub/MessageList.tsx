import { memo } from 'react';
import type { PubSubMessage } from '../../../app/schemas/pubsub';
import { VirtualRows } from '../../components/bytes/VirtualRows';
import { clockMs } from '../../lib/display';
import { formatBytes, truncate } from '../../lib/format';
import type { Row } from './feed';

/** Time, channel, pattern, payload, size. */
const COLUMNS = '92px minmax(120px, 1fr) minmax(70px, 0.5fr) minmax(200px, 3fr) 64px';
/** Characters of a payload in a row: the rest is in the detail below. */
const CELL_CHARS = 240;

interface Props {
  rows: readonly Row[];
  selected: number | undefined;
  onSelect(seq: number): void;
  /** All held, before the filter. */
  held: number;
  filtered: boolean;
}

const MessageCells = memo(function MessageCells({
  m,
  selected,
  onSelect,
  seq,
}: {
  m: PubSubMessage;
  selected: boolean;
  seq: number;
  onSelect(seq: number): void;
}) {
  return (
    <button
      type="button"
      className={`ps-row${selected ? ' is-selected' : ''}`}
      aria-pressed={selected}
      onClick={() => onSelect(seq)}
      data-testid="pubsub-row"
      data-kind={m.kind}
      style={{ gridTemplateColumns: COLUMNS }}
    >
      <span className="ps-c-time">{clockMs(m.at)}</span>
      <span className="ps-c-channel" title={m.channel.text}>
        {truncate(m.channel.text, 120)}
      </span>
      <span className="ps-c-pattern" title={m.pattern?.text}>
        {m.pattern === undefined ? (m.kind === 'smessage' ? 'shard' : '') : truncate(m.pattern.text, 60)}
      </span>
      <span className="ps-c-payload">{truncate(m.payload.text, CELL_CHARS)}</span>
      <span
        className={`ps-c-size${m.payload.truncated ? ' is-cut' : ''}`}
        title={m.payload.truncated ? `${m.payload.bytes.toLocaleString('en-US')} bytes; the first part came to this page` : undefined}
      >
        {formatBytes(m.payload.bytes)}
      </span>
    </button>
  );
});

/**
 * The held messages, newest first, in rows of equal height of which only those in view
 * are drawn (@tanstack/react-virtual). Every field is text: escaped by the server, put in
 * the DOM as React text, never as markup.
 */
export function MessageList({ rows, selected, onSelect, held, filtered }: Props) {
  return (
    <div className="ps-list-frame" data-rows={rows.length}>
      <div className="ps-list-head" style={{ gridTemplateColumns: COLUMNS }} aria-hidden="true">
        <span>Time</span>
        <span>Channel</span>
        <span>Pattern</span>
        <span>Payload</span>
        <span className="num">Size</span>
      </div>
      {rows.length === 0 ? (
        <p className="empty ps-list-empty" data-testid="pubsub-empty">
          {filtered && held > 0 ? 'No held message matches the filter.' : 'No messages yet.'}
        </p>
      ) : (
        <VirtualRows
          label="Messages, newest first"
          testId="pubsub-list"
          className="ps-list"
          count={rows.length}
          rowHeight={22}
          maxHeight={380}
          row={(i) => {
            const r = rows[i];
            if (r === undefined) return null;
            if (r.kind === 'mark') {
              return (
                <span className="ps-mark" data-testid="pubsub-mark">
                  {r.text}
                </span>
              );
            }
            return <MessageCells m={r.m} seq={r.seq} selected={r.seq === selected} onSelect={onSelect} />;
          }}
        />
      )}
    </div>
  );
}
