import type { ValueBytes } from '../../../../app/schemas/keys';
import { formatBytes, truncate } from '../../../lib/format';

/** Characters of an element shown in a table cell; the full (server-cut) text is the tooltip. */
const CELL_CHARS = 200;

/**
 * One element (a field, a value, a member) as the server escaped it, rendered as React text
 * only. A long one is cut here and on the server; its full byte length says how long it is.
 */
export function ValueText({ value, testId }: { value: ValueBytes; testId?: string }) {
  const cut = value.truncated || value.text.length > CELL_CHARS;
  return (
    <span className="kv-value" data-testid={testId}>
      <span className="kv-value-text mono" title={value.text.length > 4000 ? `${value.text.slice(0, 4000)}…` : value.text}>
        {truncate(value.text, CELL_CHARS)}
      </span>
      {cut && (
        <span
          className="kv-value-bytes"
          title={`${value.bytes.toLocaleString('en-US')} bytes in all${value.truncated ? '; the server sent the first part' : ''}`}
        >
          {formatBytes(value.bytes)}
        </span>
      )}
    </span>
  );
}
