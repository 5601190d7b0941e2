import type { ArgDoc } from '../../../../app/schemas/console';
import { listOf, pairsOf, textOf, textsOf } from './replyShape';

/** Deepest nesting of oneof/block arguments read (Redis's deepest is 4: CLIENT KILL). */
const MAX_ARG_DEPTH = 8;
/** Most arguments read at one level of one command. */
const MAX_ARGS = 200;

/** One argument as COMMAND DOCS gives it, with what the syntax line needs beyond ArgDoc. */
export interface DocArg extends ArgDoc {
  /** `display_text`: what the docs print in place of the name (XADD's `*`). */
  display?: string;
  /** `multiple_token`: the token is repeated with each value (`PREFIX a PREFIX b`). */
  multipleToken?: boolean;
  args?: DocArg[];
}

/**
 * The `arguments` of one COMMAND DOCS entry: each a map of name, type, token, flags
 * (optional, multiple, multiple_token), display_text and, for oneof and block, arguments.
 * An entry without a name or type is skipped; nesting is read to MAX_ARG_DEPTH.
 */
export function parseArgs(reply: unknown, depth = 0): DocArg[] {
  const out: DocArg[] = [];
  if (depth >= MAX_ARG_DEPTH) return out;
  for (const entry of listOf(reply, MAX_ARGS)) {
    const fields = new Map(pairsOf(entry));
    const name = textOf(fields.get('name'));
    const type = textOf(fields.get('type'));
    if (name === undefined || type === undefined) continue;
    const arg: DocArg = { name, type };
    const token = textOf(fields.get('token'));
    if (token !== undefined) arg.token = token;
    const display = textOf(fields.get('display_text'));
    if (display !== undefined && display !== '') arg.display = display;
    const flags = textsOf(fields.get('flags'));
    if (flags.includes('optional')) arg.optional = true;
    if (flags.includes('multiple')) arg.multiple = true;
    if (flags.includes('multiple_token')) arg.multipleToken = true;
    if (type === 'oneof' || type === 'block') {
      const parts = parseArgs(fields.get('arguments'), depth + 1);
      if (parts.length > 0) arg.args = parts;
    }
    out.push(arg);
  }
  return out;
}

/** The contract's ArgDoc (no display text or multiple_token), recursively. */
export function toArgDocs(args: readonly DocArg[]): ArgDoc[] {
  return args.map((a) => {
    const doc: ArgDoc = { name: a.name, type: a.type };
    if (a.token !== undefined) doc.token = a.token;
    if (a.optional === true) doc.optional = true;
    if (a.multiple === true) doc.multiple = true;
    if (a.args !== undefined) doc.args = toArgDocs(a.args);
    return doc;
  });
}

/**
 * The syntax line of a command's arguments as the Redis docs print it:
 * `key value [NX | XX] [GET] [EX seconds | PX milliseconds | …]`,
 * `[<MAXLEN | MINID> [= | ~] threshold [LIMIT count]] <* | id> field value [field value ...]`.
 * Optional parts in [ ], a repeatable part followed by `[part ...]` (with its token again when
 * the token repeats), choices joined by ` | ` and held in < > when one must be chosen (or when
 * they follow a token), a block's parts in a row, and a value shown by its display text or name.
 */
export function syntaxOf(args: readonly DocArg[]): string {
  return args.map(argSyntax).join(' ');
}

function argSyntax(arg: DocArg): string {
  const parts = arg.args ?? [];
  let body: string;
  if (arg.type === 'block') body = parts.map(argSyntax).join(' ');
  else if (arg.type === 'oneof') body = parts.map(argSyntax).join(' | ');
  else if (arg.type === 'pure-token') body = '';
  else body = arg.display ?? arg.name;

  // MIGRATE's empty key is the token "": shown as it is typed.
  const token = arg.token === '' ? '""' : arg.token;
  let out = arg.optional === true ? '[' : '';
  if (token !== undefined) out += arg.type === 'pure-token' ? token : `${token} `;
  const angled = arg.type === 'oneof' && (arg.optional !== true || arg.token !== undefined);
  out += angled ? `<${body}>` : body;
  if (arg.multiple === true) {
    out += arg.multipleToken === true && token !== undefined ? ` [${token} ${body} ...]` : ` [${body} ...]`;
  }
  if (arg.optional === true) out += ']';
  return out;
}
