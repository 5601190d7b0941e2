/** Characters that end one segment of a key name and start the next (`cache:product:eu:0000040`). */
const SEPARATORS = new Set([':', '/', '.', '-', '_', '|', '#', ',', ';', '=', ' ']);
/** The tail never shrinks below this many characters: it is what tells neighbouring names apart. */
const MIN_TAIL = 8;
/** Nor grows past this many: the head must keep room for the start of the name. */
const MAX_TAIL = 24;
/** Names this short fit any column: they are not split. */
const SHORT = MIN_TAIL * 2;

/**
 * A long name split for middle truncation: the head may be cut (with an ellipsis, by CSS),
 * the tail never is, so names that share a long prefix (`cache:product:eu:0000039`,
 * `…:0000040`) still read differently in a narrow column. The tail starts at a separator
 * when one gives a tail of MIN_TAIL..MAX_TAIL characters (the shortest such), else it is the
 * last MIN_TAIL + 4 characters. Counted in code points, so a surrogate pair is never split.
 * `head + tail` is always the whole name.
 */
export function middleCut(text: string): { head: string; tail: string } {
  const chars = Array.from(text);
  if (chars.length <= SHORT) return { head: text, tail: '' };
  let start = chars.length - (MIN_TAIL + 4);
  for (let i = chars.length - MIN_TAIL; i >= chars.length - MAX_TAIL; i--) {
    if (SEPARATORS.has(chars[i] ?? '')) {
      start = i;
      break;
    }
  }
  return { head: chars.slice(0, start).join(''), tail: chars.slice(start).join('') };
}
