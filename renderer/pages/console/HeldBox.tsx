import { useId, useState } from 'react';
import type { Held } from './useConsoleRuns';

interface Props {
  held: Held;
  busy: boolean;
  onConfirm(typed: string): void;
  onDismiss(): void;
}

/** Whether what was typed is the command to confirm: its name, in any case, spaces as typed. */
export function typedBack(typed: string, confirmWith: string): boolean {
  return typed.trim().replace(/\s+/g, ' ').toUpperCase() === confirmWith.toUpperCase();
}

/**
 * A command the guard held: why (in the server's words), and a box to type it back before it
 * runs. Nothing ran yet; Don't run leaves it so.
 */
export function HeldBox({ held, busy, onConfirm, onDismiss }: Props) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const ok = typedBack(typed, held.confirmWith);
  return (
    <form
      className="cn-held"
      role="alertdialog"
      aria-labelledby={`${inputId}-title`}
      aria-describedby={`${inputId}-why`}
      data-testid="console-held"
      data-reason={held.reason}
      onSubmit={(e) => {
        e.preventDefault();
        if (ok) onConfirm(held.confirmWith);
      }}
    >
      <strong id={`${inputId}-title`}>Held: {held.command} has not run.</strong>
      <p id={`${inputId}-why`}>{held.why}</p>
      <div className="cn-held-row">
        <label htmlFor={inputId}>Type it back:</label>
        <input
          id={inputId}
          className="mono"
          value={typed}
          placeholder={held.confirmWith}
          autoComplete="off"
          spellCheck={false}
          autoFocus
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onDismiss();
          }}
          data-testid="console-held-input"
        />
        <button type="submit" className="btn btn-danger" disabled={!ok || busy} data-testid="console-held-run">
          Run {held.confirmWith}
        </button>
        <button type="button" className="btn" onClick={onDismiss} data-testid="console-held-dismiss">
          Don’t run
        </button>
      </div>
    </form>
  );
}
