import { useState } from 'react';

export interface HistoryWalk {
  /** ↑: the line before the one shown (the draft is kept); undefined at the oldest. */
  back(current: string): string | undefined;
  /** ↓: the line after, and at the end the draft typed before walking; undefined when not walking. */
  forward(): string | undefined;
  /** A run: the next ↑ starts again from the newest line. */
  restart(): void;
}

/** Walking the history with ↑/↓ as a shell does: `lines` oldest first, the draft given back at the end. */
export function useHistory(lines: readonly string[]): HistoryWalk {
  const [at, setAt] = useState<number | undefined>(undefined);
  const [draft, setDraft] = useState('');
  return {
    back(current) {
      const from = at ?? lines.length;
      if (from <= 0) return undefined;
      if (at === undefined) setDraft(current);
      setAt(from - 1);
      return lines[from - 1];
    },
    forward() {
      if (at === undefined) return undefined;
      if (at + 1 >= lines.length) {
        setAt(undefined);
        return draft;
      }
      setAt(at + 1);
      return lines[at + 1];
    },
    restart() {
      setAt(undefined);
    },
  };
}
