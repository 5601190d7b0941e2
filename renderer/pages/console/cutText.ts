import { REPLY_DISPLAY_BYTES, REPLY_DISPLAY_ELEMENTS, REPLY_STRING_BYTES, type ReplyCut, type ReplyNode } from '../../../app/schemas/console';
import { formatBytes, formatCount } from '../../lib/format';

/**
 * What the display bound left out of a reply, in words: how much of it is shown, counted as
 * the user counts (a 1M-element list: "19,999 of 1,000,000 elements", not the server's count
 * of values, which includes the list itself), the bounds, and the whole reply's size.
 * Every figure is the server's.
 */
export function cutNote(cut: ReplyCut, reply: ReplyNode): string {
  const top =
    'items' in reply
      ? { shown: reply.items.length, total: reply.total, noun: 'elements' }
      : 'entries' in reply
        ? { shown: reply.entries.length, total: reply.total, noun: 'entries' }
        : undefined;
  const shown =
    top !== undefined && top.shown < top.total
      ? `${formatCount(top.shown)} of ${formatCount(top.total)} ${top.noun} (${formatBytes(cut.totalBytes)} of data)`
      : (reply.t === 'bulk' || reply.t === 'verbatim') && reply.cut === true
        ? `the start of a ${formatBytes(reply.bytes)} string`
        : `part of ${formatBytes(cut.totalBytes)} of data`;
  const bounds = `at most ${formatCount(REPLY_DISPLAY_ELEMENTS)} values, ${formatBytes(REPLY_DISPLAY_BYTES)} of data, ${formatBytes(REPLY_STRING_BYTES)} of any one string`;
  return `Shown: ${shown}, as the page shows ${bounds}. The whole reply (${formatBytes(cut.fileBytes)}) is in the download.`;
}

/** `… 980,000 more not shown`. */
export function moreText(more: number): string {
  return `… ${formatCount(more)} more not shown`;
}

/** The download's file name: the command and the node, safe on every file system. */
export function downloadName(command: string, address: string, raw: boolean): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return `${safe(command.toLowerCase()) || 'reply'}-${safe(address)}${raw ? '-raw' : ''}.txt`;
}
