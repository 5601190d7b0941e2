import type { KeyName as Name } from '../../../app/schemas/sampling';
import { formatBytes } from '../../lib/format';

/**
 * A key as the server escaped it (`\xff`, `\r\n`), rendered as React text only: a
 * key named `<img src=x onerror=…>` shows those characters and nothing else. One
 * line, cut with an ellipsis by CSS; the full text is the tooltip.
 */
export function KeyName({ name }: { name: Name }) {
  const size = `${formatBytes(name.bytes)}${name.truncated ? ', name shortened' : ''}`;
  return (
    <span className="smp-key" data-testid="sampling-key">
      <span className="smp-key-text mono" title={name.text}>
        {name.text}
      </span>
      {name.truncated && (
        <span className="tag tag-warn" title="The key is longer than shown: the server cut its text">
          truncated
        </span>
      )}
      <span className="smp-key-bytes" title={`The key's name is ${size}`}>
        {formatBytes(name.bytes)}
      </span>
    </span>
  );
}
