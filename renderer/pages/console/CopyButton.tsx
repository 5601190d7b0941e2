import { useEffect, useState } from 'react';

type State = 'idle' | 'copied' | 'failed';

/**
 * Copies text to the clipboard, made when clicked (a reply's text is built only if asked),
 * and says so for a moment. The Clipboard API needs a secure context (https, localhost); a
 * browser that refuses it says "Copy failed" rather than nothing.
 */
export function CopyButton({ text, label }: { text: () => string; label: string }) {
  const [state, setState] = useState<State>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(t);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text());
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  return (
    <button type="button" className="btn btn-small" onClick={() => void copy()} aria-label={label} title={label} data-testid="console-copy" data-state={state}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  );
}
