import type { ArgDoc, CommandDoc } from '../../../app/schemas/console';
import type { Caret } from './lineTokens';

/** One choice of the autocomplete list. */
export interface Suggestion {
  /** What goes in the line (upper case: how the server documents it). */
  value: string;
  kind: 'command' | 'subcommand' | 'token';
  /** The command or subcommand it names, for the inline docs. */
  doc?: CommandDoc;
  /** A token's argument, in words: `EX seconds`, `LIMIT offset count`. */
  detail?: string;
}

/** At most this many choices are listed: the list is for picking, typing narrows it. */
export const MAX_SUGGESTIONS = 100;

/** The doc of the typed command: the subcommand's ("CONFIG SET") when the second word names one. */
export function findDoc(commands: readonly CommandDoc[], words: readonly string[]): CommandDoc | undefined {
  const name = words[0]?.toUpperCase();
  if (name === undefined || name === '') return undefined;
  const doc = commands.find((c) => c.name === name);
  const sub = words[1]?.toUpperCase();
  if (doc?.subcommands === undefined || sub === undefined) return doc;
  return doc.subcommands.find((s) => s.name === `${name} ${sub}`) ?? doc;
}

/** The word a subcommand adds: "CONFIG SET" -> "SET". */
function lastWord(name: string): string {
  return name.slice(name.lastIndexOf(' ') + 1);
}

interface TokenArg {
  token: string;
  detail: string;
  multiple: boolean;
}

/** The names of an argument's parts, as the syntax line writes them: `offset count`. */
function partNames(arg: ArgDoc): string {
  if (arg.type === 'pure-token') return '';
  if (arg.args === undefined || arg.args.length === 0) return arg.name;
  return arg.args
    .map((a) => (a.token !== undefined ? a.token : partNames(a)))
    .filter((s) => s !== '')
    .join(arg.type === 'oneof' ? ' | ' : ' ');
}

/** Every literal word (EX, NX, WITHSCORES, LIMIT…) of a command's arguments, nested ones too. */
export function argTokens(args: readonly ArgDoc[] | undefined): TokenArg[] {
  const out = new Map<string, TokenArg>();
  const walk = (list: readonly ArgDoc[], multiple: boolean) => {
    for (const a of list) {
      const many = multiple || a.multiple === true;
      if (a.token !== undefined && !out.has(a.token.toUpperCase())) {
        const rest = partNames(a);
        out.set(a.token.toUpperCase(), { token: a.token.toUpperCase(), detail: rest === '' ? a.token : `${a.token} ${rest}`, multiple: many });
      }
      if (a.args !== undefined) walk(a.args, many);
    }
  };
  walk(args ?? [], false);
  return [...out.values()];
}

/**
 * How many words after the command name are plain values before any option can come: `SET
 * key value [NX | XX]` has 2, so `SET e` offers no EX (the caret is on the key).
 */
export function leadingValues(args: readonly ArgDoc[] | undefined): number {
  let n = 0;
  for (const a of args ?? []) {
    if (a.optional === true || a.token !== undefined || a.multiple === true || a.type === 'oneof') break;
    n += a.type === 'block' ? leadingValues(a.args) : 1;
  }
  return n;
}

function byPrefix(prefix: string) {
  return (value: string) => value.startsWith(prefix);
}

/** Exact match first, then alphabetical: HSET before HSETNX for "hset". */
function ranked(list: Suggestion[], prefix: string): Suggestion[] {
  return list.sort((a, b) => Number(b.value === prefix) - Number(a.value === prefix) || a.value.localeCompare(b.value)).slice(0, MAX_SUGGESTIONS);
}

/**
 * What may come at the caret: command names for the first word, a subcommand for the second
 * (CONFIG _), else the command's literal words (EX, WITHSCORES) once its leading values are
 * typed. An empty word lists choices only when asked (`forced`: Tab) or for a subcommand,
 * which the command cannot go without.
 */
export function suggest(commands: readonly CommandDoc[], caret: Caret, forced = false): Suggestion[] {
  if (caret.quoted) return [];
  const prefix = caret.current.text.toUpperCase();
  const words = caret.before.map((t) => t.text);
  if (words.length === 0) {
    if (prefix === '' && !forced) return [];
    const match = byPrefix(prefix);
    return ranked(
      commands.filter((c) => match(c.name)).map((c) => ({ value: c.name, kind: 'command', doc: c })),
      prefix,
    );
  }
  const head = commands.find((c) => c.name === words[0]?.toUpperCase());
  if (head === undefined) return [];
  if (words.length === 1 && head.subcommands !== undefined && head.subcommands.length > 0) {
    const match = byPrefix(prefix);
    return ranked(
      head.subcommands.filter((s) => match(lastWord(s.name))).map((s) => ({ value: lastWord(s.name), kind: 'subcommand', doc: s })),
      prefix,
    );
  }
  if (prefix === '' && !forced) return [];
  const doc = findDoc(commands, words) ?? head;
  const skip = doc === head ? 1 : 2;
  if (words.length - skip < leadingValues(doc.args)) return [];
  const typed = new Set(words.slice(skip).map((w) => w.toUpperCase()));
  const match = byPrefix(prefix);
  return ranked(
    argTokens(doc.args)
      .filter((t) => match(t.token) && (t.multiple || !typed.has(t.token)))
      .map((t) => ({ value: t.token, kind: 'token', doc, detail: t.detail })),
    prefix,
  );
}
