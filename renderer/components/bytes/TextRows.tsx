import { useMemo } from 'react';
import { textRows } from './textLines';
import { VirtualRows } from './VirtualRows';

/** Escaped text in rows of equal height, only those in view drawn: a 1 MB value scrolls like a short one. */
export function TextRows({ text, testId, label }: { text: string; testId: string; label: string }) {
  const rows = useMemo(() => textRows(text), [text]);
  return <VirtualRows label={label} testId={testId} className="kv-text" count={rows.length} rowHeight={18} maxHeight={460} row={(i) => rows[i]} />;
}
