import { useMemo, useState } from 'react';
import type { CommandDoc } from '../../../app/schemas/console';
import { findDoc, suggest, type Suggestion } from './completions';
import { caretIn, lineAt } from './lineTokens';

export interface Completion {
  /** The choices shown (none when the list is closed). */
  shown: Suggestion[];
  active: number;
  /** The command the caret's line is typing, for the syntax hint. */
  doc: CommandDoc | undefined;
  /** Arrow keys moved the choice: Enter now takes it rather than running the line. */
  chosen: boolean;
  move(by: 1 | -1): void;
  /** Tab: every choice at the caret, the list opened when there are several. */
  open(): Suggestion[];
  close(): void;
  /** The text with `s` put in place of the caret's word, and where the caret goes. */
  apply(s: Suggestion): { text: string; caret: number };
  /** The text or caret moved: a closed list may open again. */
  reset(): void;
}

/** Autocomplete at the caret of a multi-line command input: what to list, which is active, and what taking one does. */
export function useCompletion(commands: readonly CommandDoc[], text: string, caret: number): Completion {
  const [forced, setForced] = useState(false);
  const [closed, setClosed] = useState(false);
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState(false);

  const at = useMemo(() => {
    const where = lineAt(text, caret);
    return { ...where, caret: caretIn(where.line, caret - where.offset) };
  }, [text, caret]);
  const all = useMemo(() => suggest(commands, at.caret, forced), [commands, at, forced]);
  const words = useMemo(() => [...at.caret.before.map((t) => t.text), at.caret.current.text], [at]);
  const doc = useMemo(() => findDoc(commands, words), [commands, words]);

  // A list of one that is already typed in full has nothing to offer: Enter runs.
  const typedInFull = all.length === 1 && all[0]?.value === at.caret.current.text.toUpperCase();
  const shown = closed || typedInFull ? [] : all;
  const index = Math.min(active, Math.max(0, shown.length - 1));

  return {
    shown,
    active: index,
    doc,
    chosen,
    move(by) {
      if (shown.length === 0) return;
      setActive((index + by + shown.length) % shown.length);
      setChosen(true);
    },
    open() {
      const list = suggest(commands, at.caret, true);
      if (list.length > 1) {
        setClosed(false);
        setForced(true);
      }
      return list;
    },
    close() {
      setClosed(true);
      setChosen(false);
    },
    apply(s) {
      const from = at.offset + at.caret.current.start;
      const to = at.offset + at.caret.current.end;
      const after = text.slice(to);
      const space = after.startsWith(' ') ? '' : ' ';
      return { text: `${text.slice(0, from)}${s.value}${space}${after}`, caret: from + s.value.length + 1 };
    },
    reset() {
      setForced(false);
      setClosed(false);
      setActive(0);
      setChosen(false);
    },
  };
}
