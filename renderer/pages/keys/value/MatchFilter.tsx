import { useState } from 'react';
import { typedBytes } from './valueBytes';

/**
 * A SCAN MATCH glob for a hash's fields or a set's members, typed with escapes; applied on
 * Enter, so each keystroke is not a new scan. Calls back with the glob's base64 (undefined: all).
 */
export function MatchFilter({ onApply, noun }: { onApply(b64: string | undefined): void; noun: string }) {
  const [text, setText] = useState('');
  const parsed = typedBytes(text);
  return (
    <form
      className="kv-match"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed.ok) onApply(parsed.bytes === 0 ? undefined : parsed.b64);
      }}
    >
      <input
        type="search"
        className="mono"
        placeholder={`Match ${noun} (glob, e.g. user:*)`}
        aria-label={`Match ${noun}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={!parsed.ok}
        data-testid="kv-match"
      />
      <button type="submit" className="btn btn-small" disabled={!parsed.ok}>
        Filter
      </button>
      {!parsed.ok && <span className="field-error">{parsed.error}</span>}
    </form>
  );
}
