import { REPLY_DISPLAY_BYTES, REPLY_DISPLAY_ELEMENTS, REPLY_STRING_BYTES, type ReplyCut } from '../../../app/schemas/console';
import { formatBytes, formatCount } from '../../lib/format';

/**
 * What the display bound left out of a reply, in words: which bound it met and the whole
 * reply's size. "Shown: the first 20,000 elements of 1,000,000; the whole reply (7.6 MiB) is
 * in the download." Every figure is the server's.
 */
export function cutNote(cut: ReplyCut): string {
  const many = cut.totalElements > REPLY_DISPLAY_ELEMENTS;
  const big = cut.totalBytes > REPLY_DISPLAY_BYTES;
  const elements = `${formatCount(REPLY_DISPLAY_ELEMENTS)} elements`;
  const bytes = formatBytes(REPLY_DISPLAY_BYTES);
  const shown =
    many && big
      ? `the first ${elements} (at most ${bytes}) of ${formatCount(cut.totalElements)} (${formatBytes(cut.totalBytes)})`
      : many
        ? `the first ${elements} of ${formatCount(cut.totalElements)}`
        : big
          ? `the first ${bytes} of ${formatBytes(cut.totalBytes)}`
          : // Neither: a string was longer than one string may show.
            `each string's first ${formatBytes(REPLY_STRING_BYTES)}`;
  return `Shown: ${shown}; the whole reply (${formatBytes(cut.fileBytes)}) is in the download.`;
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
