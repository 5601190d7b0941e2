import type { KeyRef } from '../../app/schemas/keys';

/**
 * A key (or folder) name as the server escaped it (`\xff`, `\r\n`, `\u202e`), rendered as
 * React text only: a key named `<img src=x onerror=…>` shows those characters and nothing
 * else. One line, cut with an ellipsis by CSS; the whole text is the tooltip.
 */
export function KeyText({ name, text }: { name: Pick<KeyRef, 'text' | 'truncated'>; text?: string }) {
  return (
    <span className="keys-name mono" title={name.text}>
      <span className="keys-name-text">{text ?? name.text}</span>
      {name.truncated && (
        <span className="tag tag-warn" title="The name is longer than shown: the server cut its text">
          cut
        </span>
      )}
    </span>
  );
}
