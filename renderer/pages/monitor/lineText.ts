import type { MonitorLine } from '../../../app/schemas/monitor';
import { clock } from '../../lib/display';
import type { LineRow } from './rows';

/** Shared with the Pub/Sub page's message times. */
export { clockMs } from '../../lib/display';

/**
 * One argument for display. The server already escaped it (`\"`, `\n`, `\xff`),
 * so it never holds a raw quote: wrapping it in quotes is unambiguous, and only
 * needed when it is empty or holds a space.
 */
export function argText(arg: string): string {
  return arg === '' || arg.includes(' ') ? `"${arg}"` : arg;
}

/** The arguments after the command, as one line of text. */
export function argsText(line: Pick<MonitorLine, 'args' | 'moreArgs'>): string {
  const text = line.args.map(argText).join(' ');
  return line.moreArgs > 0 ? `${text} … +${line.moreArgs} more` : text;
}

/** At most `max` characters for a one-line cell: the args of one line can reach 64 KB. */
export function cellText(text: string, max = 400): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function gapText(from: number, to: number, reason: string): string {
  return `— no lines from ${clock(from)} to ${clock(to)} (${reason}) —`;
}

/** What a search reads of a line: client, command and arguments, lower-cased; cached on the row. */
export function haystack(row: LineRow): string {
  row.hay ??= `${row.line.client} ${row.line.command} ${argsText(row.line)}`.toLowerCase();
  return row.hay;
}

export interface TextPart {
  text: string;
  hit: boolean;
}

/** `text` cut around every case-insensitive occurrence of `query`, for <mark>. */
export function highlightParts(text: string, query: string): TextPart[] {
  const q = query.toLowerCase();
  if (q === '') return [{ text, hit: false }];
  const lower = text.toLowerCase();
  const parts: TextPart[] = [];
  let from = 0;
  for (let i = lower.indexOf(q); i >= 0; i = lower.indexOf(q, i + q.length)) {
    if (i > from) parts.push({ text: text.slice(from, i), hit: false });
    parts.push({ text: text.slice(i, i + q.length), hit: true });
    from = i + q.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), hit: false });
  return parts;
}
