import type { KeyRef } from '../../app/schemas/keys';
import { MiddleCut } from './MiddleCut';

/**
 * A key (or folder) name as the server escaped it (`\xff`, `\r\n`, `\u202e`), rendered as
 * React text only: a key named `<img src=x onerror=…>` shows those characters and nothing
 * else. One line, cut in the middle when too long (MiddleCut): names that share a long prefix
 * keep the end that tells them apart; the whole text is the tooltip and the accessible name.
 */
export function KeyText({ name, text }: { name: Pick<KeyRef, 'text' | 'truncated'>; text?: string }) {
  return (
    <span className="keys-name mono" title={name.text}>
      <MiddleCut className="keys-name-text" text={text ?? name.text} />
      {name.truncated && (
        <span className="tag tag-warn" title="The name is longer than shown: the server cut its text">
          cut
        </span>
      )}
    </span>
  );
}
