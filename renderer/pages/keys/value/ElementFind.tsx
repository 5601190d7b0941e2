import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatCount } from '../../../lib/format';
import type { Find } from './useFindElements';
import { typedBytes } from './valueBytes';

/**
 * Finding a hash's fields, a set's or a sorted set's members: an exact name (typed with escapes)
 * opens at once, a glob (`*`, `?`, `[…]`; `\*` for a literal star) walks the value with progress.
 * Run on Enter or Find, so each keystroke is not a new walk.
 */
export function ElementFind({ find, noun }: { find: Find; noun: string }) {
  const [text, setText] = useState('');
  const parsed = typedBytes(text);
  return (
    <form
      className="kv-match"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed.ok) find.start(parsed.bytes === 0 ? undefined : parsed.b64);
      }}
    >
      <input
        type="search"
        className="mono"
        placeholder={`Find ${noun}: name or glob, user:*`}
        aria-label={`Find ${noun}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={!parsed.ok}
        data-testid="kv-match"
      />
      <button type="submit" className="btn btn-small" disabled={!parsed.ok} data-testid="kv-find">
        Find
      </button>
      {find.match !== undefined && (
        <button
          type="button"
          className="btn btn-small btn-ghost"
          onClick={() => {
            setText('');
            find.start(undefined);
          }}
          data-testid="kv-find-clear"
        >
          Show all
        </button>
      )}
      {!parsed.ok && <span className="field-error">{parsed.error}</span>}
    </form>
  );
}

/** The foot of a view while it shows a find: progress and Stop while it walks, then what it found. */
export function FindStatus({ find, noun, one }: { find: Find; noun: string; one: string }) {
  const total = find.total;
  return (
    <div className="kv-foot" data-testid="kv-find-status">
      {find.running && (
        <>
          <progress max={Math.max(1, total ?? 1)} value={find.scanned} aria-label={`${noun} read`} data-testid="kv-find-progress" />
          <span className="muted" data-testid="kv-find-counts">
            {formatCount(find.scanned)} of {total === undefined ? '…' : formatCount(total)} {noun} read · {formatCount(find.matched)} found
          </span>
          <button type="button" className="btn btn-small" onClick={find.stop} data-testid="kv-find-stop">
            Stop
          </button>
        </>
      )}
      {!find.running && find.error === undefined && (
        <span className="muted" data-testid="kv-find-result">
          {find.exact
            ? find.matched === 0
              ? `No ${one} has that exact name`
              : `The ${one} of that exact name`
            : `${formatCount(find.matched)} ${noun} matching${find.stopped ? `, stopped after ${formatCount(find.scanned)} of ${formatCount(total ?? 0)} read` : `, of ${formatCount(total ?? 0)} · all read`}`}
        </span>
      )}
      {find.notShown > 0 && (
        <span className="muted" data-testid="kv-find-more">
          {formatCount(find.notShown)} more not shown: narrow the glob
        </span>
      )}
      <ErrorAlert error={find.error} title="Could not find:" />
    </div>
  );
}
