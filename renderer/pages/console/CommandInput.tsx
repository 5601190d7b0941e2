import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { CommandDoc } from '../../../app/schemas/console';
import { CommandDocs } from './CommandDocs';
import type { Suggestion } from './completions';
import { lineAt } from './lineTokens';
import { Suggestions } from './Suggestions';
import { useCompletion } from './useCompletion';
import { useHistory } from './useHistory';

interface Props {
  /** redis-cli's prompt: `127.0.0.1:6379[2]>`. */
  prompt: string;
  commands: readonly CommandDoc[];
  /** Oldest first: the profile's history, then this session's lines. */
  history: readonly string[];
  value: string;
  onChange(text: string): void;
  onRun(): void;
  /** A batch is running: Enter waits for it. */
  busy: boolean;
  /** A line the server could not parse, in the page's words. */
  error: string | undefined;
  /** The textarea, for the page to give the focus back (after a held command is settled). */
  textareaRef: RefObject<HTMLTextAreaElement | null>;
}

/** At most this many lines tall; more scroll. */
const MAX_ROWS = 8;

/**
 * The command line: Enter runs every line in order, Shift+Enter starts a new line, ↑ on the
 * first line and ↓ on the last walk the history. Autocomplete opens as a word is typed (or
 * with Tab): ↑/↓ choose, Tab (or Enter after choosing) takes the choice, Escape closes it.
 * Tab with nothing to offer moves the focus on, as Tab does.
 */
export function CommandInput({ prompt, commands, history, value, onChange, onRun, busy, error, textareaRef: ref }: Props) {
  const [caret, setCaret] = useState(0);
  // Where the caret goes once the new text is drawn (a completion, a history line).
  const place = useRef<number | undefined>(undefined);
  const completion = useCompletion(commands, value, caret);
  const walk = useHistory(history);
  const listId = useId();
  const errorId = useId();
  const optionId = (i: number) => `${listId}-o${i}`;

  // The text typed last: a value that differs came from outside (lines given back after a stop).
  const typed = useRef(value);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const at = place.current ?? (value !== typed.current ? value.length : undefined);
    typed.current = value;
    place.current = undefined;
    if (at === undefined) return;
    el.setSelectionRange(at, at);
    setCaret(at);
  }, [value]);

  function set(text: string, at: number) {
    place.current = at;
    onChange(text);
    completion.reset();
  }

  function pick(s: Suggestion) {
    const next = completion.apply(s);
    set(next.text, next.caret);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    const open = completion.shown.length > 0;
    const where = lineAt(value, e.currentTarget.selectionStart);
    const plainEnter = e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey;
    if (open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      completion.move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (open && (e.key === 'Tab' || (plainEnter && completion.chosen))) {
      e.preventDefault();
      const s = completion.shown[completion.active];
      if (s !== undefined) pick(s);
    } else if (open && e.key === 'Escape') {
      e.preventDefault();
      completion.close();
    } else if (e.key === 'Tab' && !e.shiftKey) {
      const all = completion.open();
      if (all.length > 0) e.preventDefault();
      if (all.length === 1 && all[0] !== undefined) pick(all[0]);
    } else if (plainEnter) {
      e.preventDefault();
      if (!busy) {
        walk.restart();
        onRun();
      }
    } else if (e.key === 'ArrowUp' && where.index === 0 && !e.shiftKey) {
      const line = walk.back(value);
      if (line !== undefined) {
        e.preventDefault();
        set(line, line.length);
      }
    } else if (e.key === 'ArrowDown' && where.index === where.count - 1 && !e.shiftKey) {
      const line = walk.forward();
      if (line !== undefined) {
        e.preventDefault();
        set(line, line.length);
      }
    }
  }

  const open = completion.shown.length > 0;
  const rows = Math.min(MAX_ROWS, Math.max(1, value.split('\n').length));
  return (
    <div className="cn-input" data-testid="console-input-box">
      {open && <Suggestions id={listId} items={completion.shown} active={completion.active} onPick={pick} optionId={optionId} />}
      <div className="cn-input-row">
        <label className="cn-prompt mono" htmlFor={`${listId}-input`} data-testid="console-prompt">
          {prompt}
        </label>
        <textarea
          ref={ref}
          id={`${listId}-input`}
          className="cn-textarea mono"
          rows={rows}
          value={value}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          role="combobox"
          aria-label="Command"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? optionId(completion.active) : undefined}
          aria-invalid={error !== undefined}
          aria-describedby={error !== undefined ? errorId : undefined}
          placeholder="Type a command (Tab completes; Enter runs; Shift+Enter adds a line)"
          onChange={(e) => {
            typed.current = e.target.value;
            onChange(e.target.value);
            setCaret(e.target.selectionStart);
            completion.reset();
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => completion.close()}
          data-testid="console-input"
        />
        <button type="button" className="btn btn-primary" onClick={onRun} disabled={busy || value.trim() === ''} data-testid="console-run">
          {busy ? 'Running…' : 'Run'}
        </button>
      </div>
      {error !== undefined && (
        <p className="field-error cn-input-error" id={errorId} role="alert" data-testid="console-input-error">
          {error}
        </p>
      )}
      {completion.doc !== undefined && !open && (
        <div className="cn-hint-bar" data-testid="console-syntax">
          <CommandDocs doc={completion.doc} />
        </div>
      )}
    </div>
  );
}
