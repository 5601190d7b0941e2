import type { CommandDoc } from '../../../../app/schemas/console';
import { parseArgs, syntaxOf, toArgDocs } from './argSyntax';
import { commandNameOf, pairsOf, textOf, textsOf } from './replyShape';

/** What COMMAND DOCS says of one command: its words, and its arguments as a syntax line. */
export interface DocsEntry extends Pick<CommandDoc, (typeof DOCS_FIELDS)[number]> {
  /** By lower-case full name, "config|set". */
  subcommands: Map<string, DocsEntry>;
}

/** The CommandDoc fields COMMAND DOCS fills. */
export const DOCS_FIELDS = ['summary', 'since', 'group', 'complexity', 'syntax', 'args'] as const;

/**
 * COMMAND DOCS: a map of command name to a map of summary, since, group, complexity,
 * doc_flags, deprecated_since, replaced_by, arguments and subcommands (the same shape
 * again). In RESP2 both maps are flat arrays. Keyed by lower-case name; the first of a
 * name given twice is kept.
 */
export function parseCommandDocs(reply: unknown, depth = 0): Map<string, DocsEntry> {
  const out = new Map<string, DocsEntry>();
  for (const [rawName, body] of pairsOf(reply)) {
    const name = commandNameOf(rawName)?.toLowerCase();
    if (name === undefined || out.has(name)) continue;
    const fields = new Map(pairsOf(body));
    const entry: DocsEntry = { subcommands: new Map() };
    const summary = summaryOf(fields);
    if (summary !== undefined) entry.summary = summary;
    for (const key of ['since', 'group', 'complexity'] as const) {
      const v = textOf(fields.get(key));
      if (v !== undefined && v !== '') entry[key] = v;
    }
    if (fields.has('arguments')) {
      const args = parseArgs(fields.get('arguments'));
      entry.args = toArgDocs(args);
      entry.syntax = syntaxOf(args);
    } else if (fields.has('summary')) {
      // Documented with no arguments: the syntax is the name alone.
      entry.syntax = '';
    }
    if (depth === 0) entry.subcommands = parseCommandDocs(fields.get('subcommands'), 1);
    out.set(name, entry);
  }
  return out;
}

/** The summary, with the server's deprecation note when it marks the command deprecated. */
function summaryOf(fields: Map<string, unknown>): string | undefined {
  const summary = textOf(fields.get('summary'));
  if (!textsOf(fields.get('doc_flags')).includes('deprecated')) return summary;
  const since = textOf(fields.get('deprecated_since'));
  // replaced_by is markdown: `GEOSEARCH` with the `BYRADIUS` argument.
  const instead = textOf(fields.get('replaced_by'))?.replace(/`/g, '');
  const note = `Deprecated${since === undefined ? '' : ` since ${since}`}${instead === undefined ? '' : `: use ${instead} instead`}.`;
  return summary === undefined ? note : `${summary.replace(/\.$/, '')}. ${note}`;
}
