import type { CSSProperties } from 'react';
import { middleCut } from '../lib/middleCut';
import './middleCut.css';

/**
 * Untrusted text (a key name) on one line, cut in the middle when the line is too short: the
 * head ends in an ellipsis, the tail stays, so `cache:product:eu:0000039` and `…:0000040` still
 * read differently. Rendered as React text only; the text content and the accessible name are the
 * whole name, and `className` (e.g. keys-name-text) goes on the outer span.
 */
export function MiddleCut({ text, className }: { text: string; className?: string }) {
  const { head, tail } = middleCut(text);
  return (
    // Browsers may name the two boxes as two words ("…eu :0000040"): the label keeps the name whole.
    <span
      className={className === undefined ? 'middle-cut' : `middle-cut ${className}`}
      aria-label={tail === '' ? undefined : text}
      style={tail === '' ? undefined : ({ '--tail-ch': `${[...tail].length}ch` } as CSSProperties)}
    >
      <span className="middle-cut-head">{head}</span>
      {tail !== '' && <span className="middle-cut-tail">{tail}</span>}
    </span>
  );
}
