import { useEffect, useRef, useState, type RefObject } from 'react';

export interface EditFocus {
  /** The view's root, where the Edit buttons are looked up again after its rows are redrawn. */
  rootRef: RefObject<HTMLDivElement | null>;
  /** The form an Edit button fills. */
  formRef: RefObject<HTMLFormElement | null>;
  /** An Edit button (its row's id: `data-edit-row`) filled the form: the form's first field takes the focus. */
  opened(row: string): void;
  /** The edit was saved or cancelled: the focus goes back to that row's Edit button. */
  closed(): void;
}

/** How long a closed edit waits for its row to be drawn again (a save reads the key and its rows again) before it gives up. */
const WAIT_FOR_ROW_MS = 10_000;
/** How often, meanwhile, the row's Edit button is looked for again. */
const CHECK_MS = 50;

/**
 * Keyboard focus for a view's row edits: Edit moves the focus into the form it fills, and Save or
 * Cancel brings it back to the Edit button it came from. The rows are virtual and a save reloads
 * them, so the button is found again by its row's id once it is drawn, not held.
 */
export function useEditFocus(): EditFocus {
  const rootRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const back = useRef<{ row: string; until: number; returned?: boolean } | null>(null);
  const [opens, setOpens] = useState(0);
  const [closes, setCloses] = useState(0);
  const row = useRef('');

  useEffect(() => {
    if (opens > 0) formRef.current?.querySelector<HTMLElement>('input, textarea')?.focus();
  }, [opens]);

  // From each render, and then every CHECK_MS until the deadline: the row may be drawn only after
  // its page is read again, and a save reads the key and its rows again more than once (the
  // edit's answer, then the fresh metadata), sometimes in a child that redraws without this view
  // (the virtual rows): a button focused then unmounted drops the focus to the body, so it is
  // looked up again until the deadline, not only when this view renders.
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    const check = (): void => {
      clearTimeout(timer.current);
      const b = back.current;
      if (b === null) return;
      if (performance.now() > b.until) {
        back.current = null;
        return;
      }
      const button = rootRef.current?.querySelector<HTMLElement>(`[data-edit-row="${CSS.escape(b.row)}"]`) ?? null;
      const at = document.activeElement;
      // The person moved on (the focus is somewhere else than the body, nowhere, that button, or
      // the form before the focus first came back): leave it there.
      const inForm = !b.returned && (formRef.current?.contains(at) ?? false);
      if (!(at === null || at === document.body || at === button || inForm)) {
        back.current = null;
        return;
      }
      if (button !== null && at !== button) button.focus();
      if (button !== null && document.activeElement === button) b.returned = true;
      timer.current = setTimeout(check, CHECK_MS);
    };
    check();
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    rootRef,
    formRef,
    opened: (r) => {
      back.current = null;
      row.current = r;
      setOpens((n) => n + 1);
    },
    closed: () => {
      if (row.current === '') return;
      back.current = { row: row.current, until: performance.now() + WAIT_FOR_ROW_MS };
      row.current = '';
      setCloses(closes + 1);
    },
  };
}
