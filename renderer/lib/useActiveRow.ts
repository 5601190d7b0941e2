import type { Virtualizer } from '@tanstack/react-virtual';
import { useId, useState, type KeyboardEvent } from 'react';

const PAGE = 10;

/**
 * The keyboard for a virtual list (the Keys page's tree and key list): the scroller is one
 * tab stop and the arrows move an active row (aria-activedescendant), scrolled into view.
 * Rows stay out of the tab order, so Tab leaves the list rather than walking every row, and
 * a row far off screen (not in the DOM) is reached as easily as the next one.
 */
export function useActiveRow({
  count,
  virtual,
  canStop = () => true,
}: {
  count: number;
  virtual: Virtualizer<HTMLDivElement, Element>;
  /** Rows the arrows pass over (a "Loading…" note). */
  canStop?: (index: number) => boolean;
}) {
  const base = useId();
  const [wanted, setWanted] = useState(0);
  const active = count === 0 ? -1 : Math.min(Math.max(0, wanted), count - 1);

  /** Makes row `target` active (or the nearest one it may stop on, going `dir`) and scrolls it into view. */
  const moveTo = (target: number, dir: 1 | -1 = 1) => {
    let i = Math.min(Math.max(0, target), count - 1);
    while (i >= 0 && i < count && !canStop(i)) i += dir;
    if (i < 0 || i >= count) return;
    setWanted(i);
    virtual.scrollToIndex(i, { align: 'auto' });
  };

  /** Up, Down, Home, End, PageUp, PageDown; true when the key was one of them. */
  const onNavKey = (e: KeyboardEvent): boolean => {
    const to: Record<string, [number, 1 | -1]> = {
      ArrowDown: [active + 1, 1],
      ArrowUp: [active - 1, -1],
      PageDown: [active + PAGE, 1],
      PageUp: [active - PAGE, -1],
      Home: [0, 1],
      End: [count - 1, -1],
    };
    const move = to[e.key];
    if (move === undefined || count === 0) return false;
    e.preventDefault();
    moveTo(...move);
    return true;
  };

  const idOf = (index: number) => `${base}-row-${index}`;
  return {
    active,
    /** The DOM id of row `index`, for aria-activedescendant. */
    idOf,
    /** What the scroller (the tree, the listbox) carries: one tab stop, its active row, and its keys. */
    scrollerProps: (onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void) => ({
      tabIndex: 0,
      'aria-activedescendant': active >= 0 ? idOf(active) : undefined,
      onKeyDown,
    }),
    moveTo,
    onNavKey,
    /** A click makes the clicked row the active one too. */
    setActive: setWanted,
  };
}
