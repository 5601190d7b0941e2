import type { ReplyNode } from './schemas/console';

/**
 * A reply as redis-cli prints it: `formatted` as in a terminal (`1) "a"`, `(integer) 3`,
 * `(nil)`, nested `1) 1) …`), `raw` as `redis-cli --raw` does. Pure: the renderer formats a
 * shown reply with it, and the Node side writes a whole, uncut reply to its download file
 * through the same writer, event by event (ReplyTextWriter), so the two never disagree.
 */
export type ReplyTextMode = 'formatted' | 'raw';

/** The whole text of a (possibly cut) reply tree. */
export function replyText(node: ReplyNode, mode: ReplyTextMode): string {
  void node;
  void mode;
  throw new Error('replyText: not built yet');
}
