import type { GapSpan } from './gapSpans';

/** Each cause labels on its own row, so spans of two causes at one time never print over each other. */
export const GAP_ROW: Record<GapSpan['cause'], number> = { down: 0, slow: 1, unrecorded: 0 };
/** Width of one character of the 10 px label font, generously: a label must fit its span. */
const LABEL_CHAR_PX = 6.5;

interface Box {
  x: number;
  y: number;
  width: number;
}

function isBox(v: unknown): v is Box {
  return typeof v === 'object' && v !== null && 'x' in v && 'y' in v && 'width' in v;
}

/**
 * A span's label, drawn only when the span is wide enough to hold it: short spans side by
 * side (a node flapping) each printing "down" over the next read as "dddddown".
 */
export function spanLabel(text: string, row: number) {
  return function SpanLabel({ viewBox }: { viewBox?: unknown }) {
    if (!isBox(viewBox) || viewBox.width < text.length * LABEL_CHAR_PX + 6) return null;
    return (
      <text x={viewBox.x + viewBox.width / 2} y={viewBox.y + 11 + row * 12} textAnchor="middle" fontSize={10} className="ov-gap-label">
        {text}
      </text>
    );
  };
}
