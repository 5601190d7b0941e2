import { useMemo } from 'react';
import { MeasuredList } from './MeasuredList';

/** A reply's text (redis-cli --raw, or its formatted print) line by line; only the lines in view are drawn. */
export function RawText({ text }: { text: string }) {
  const lines = useMemo(() => text.split('\n'), [text]);
  return (
    <MeasuredList count={lines.length} itemKey={(i) => i} line={(i) => lines[i] ?? ''} label="Reply as text" className="cn-raw" testId="console-reply-raw" />
  );
}
