/** Where a parse error points, drawn as the offending line with a caret under the column. */
export interface CaretLine {
  /** The line holding the error, cut around it when long, tabs as spaces. */
  text: string;
  /** Characters before the caret in `text` (a caret at the end sits after the last). */
  caret: number;
  /** 1-based, within the whole expression (the server's messages count columns this way too). */
  line: number;
  column: number;
}

/**
 * The line of `text` around the 0-based `position` (a UTF-16 offset, as the server
 * counts), measured in code points so an emoji does not push the caret off its
 * character. A line longer than `width` is cut to a window around the caret, marked with "…".
 */
export function caretLine(text: string, position: number, width = 80): CaretLine {
  const at = Math.max(0, Math.min(text.length, Math.floor(position)));
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const newline = text.indexOf('\n', at);
  const end = newline < 0 ? text.length : newline;
  const chars = Array.from(text.slice(start, end).replace(/\t/g, ' '));
  let caret = Array.from(text.slice(start, at)).length;
  const line = text.slice(0, start).split('\n').length;
  const column = at - start + 1;
  if (chars.length <= width) return { text: chars.join(''), caret, line, column };

  const half = Math.floor(width / 2);
  const from = Math.max(0, Math.min(caret - half, chars.length - width));
  const to = Math.min(chars.length, from + width);
  let shown = chars.slice(from, to).join('');
  caret -= from;
  if (from > 0) {
    shown = `…${shown}`;
    caret += 1;
  }
  if (to < chars.length) shown = `${shown}…`;
  return { text: shown, caret, line, column };
}
