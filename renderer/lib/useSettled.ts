import { useEffect, useState } from 'react';

/**
 * `value` once it has stayed the same for `ms`: what a server check should see
 * while the user types (one call when typing pauses, not one per keystroke).
 * Compared by JSON, so an equal object rebuilt on each render does not restart the wait.
 */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const json = JSON.stringify(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(JSON.parse(json) as T), ms);
    return () => clearTimeout(t);
  }, [json, ms]);
  return settled;
}
