/**
 * A server's "you may not run this" replies, read as the command refused. Managed services
 * (ElastiCache, Memorystore, Azure Cache) drop admin commands with `rename-command X ""`, which
 * answers as if the command never existed; an ACL user without `@admin` or `@dangerous` gets
 * NOPERM. Both mean "not available here", never "the server failed", and the page that met one
 * says which command it lacked.
 *
 * Replies read here, as Redis 6.0 to 8 and Valkey word them:
 *   NOPERM this user has no permissions to run the 'client|list' command    (6.0 adds "or its subcommand")
 *   ERR unknown command 'config', with args beginning with: 'get' …         (6.2+; older: `config`)
 *   ERR unknown subcommand 'docs'. Try COMMAND HELP.                         (the command is the one tried)
 *   ERR DEBUG command not allowed. If the enable-debug-command option is …   (7.0+ default)
 */
export interface Refusal {
  /** Upper case, a subcommand after a space: "CONFIG", "CLIENT LIST". */
  command: string;
  /** The server's own words. */
  message: string;
  /** `acl`: this user may not (NOPERM); `missing`: the server does not have it (renamed away, disabled, too old). */
  kind: 'acl' | 'missing';
}

// Unanchored: the pool's own errors quote the server ("… denied this by ACL: this user has no permissions to run …").
const NOPERM = /\bno permissions to run the '([^']+)' command/i;
const NOPERM_ANY = /^NOPERM\b|denied this by ACL/i;
const UNKNOWN = /unknown command [`']([^`']+)[`']/i;
const UNKNOWN_SUB = /unknown subcommand|unknown command|unsupported command|is disabled/i;
const NOT_ALLOWED = /\bERR (\S+) command not allowed/i;

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : '';
}

/** "client|list" (ACL's spelling) as "CLIENT LIST". */
function commandName(raw: string): string {
  return raw.replace('|', ' ').toUpperCase();
}

/**
 * The refusal in `err`, or undefined for any other error (a wrong type, a timeout, a lost
 * connection). `tried` names the command when the reply does not (an unknown subcommand, a
 * service's own wording): the first word or two of what was sent.
 */
export function readRefusal(err: unknown, tried?: readonly string[]): Refusal | undefined {
  const message = messageOf(err);
  const triedName = tried === undefined || tried.length === 0 ? undefined : triedCommand(tried);
  const noperm = NOPERM.exec(message);
  if (noperm?.[1] !== undefined) return { command: commandName(noperm[1]), message, kind: 'acl' };
  if (NOPERM_ANY.test(message)) {
    // A key or channel the user may not touch: a refusal of this command's arguments.
    return triedName === undefined ? undefined : { command: triedName, message, kind: 'acl' };
  }
  const notAllowed = NOT_ALLOWED.exec(message);
  if (notAllowed?.[1] !== undefined) return { command: commandName(notAllowed[1]), message, kind: 'missing' };
  const unknown = UNKNOWN.exec(message);
  if (unknown?.[1] !== undefined) {
    const name = commandName(unknown[1]);
    // "unknown command 'docs'" names the word the server did not know; say it whole when we know what was sent.
    return { command: triedName?.startsWith(name) === true ? triedName : name, message, kind: 'missing' };
  }
  if (UNKNOWN_SUB.test(message) && triedName !== undefined) return { command: triedName, message, kind: 'missing' };
  return undefined;
}

/** Commands whose second word picks what runs (CONFIG GET, CLIENT KILL, COMMAND DOCS, ACL DRYRUN…). */
const CONTAINERS = new Set([
  'ACL',
  'CLIENT',
  'CLUSTER',
  'COMMAND',
  'CONFIG',
  'DEBUG',
  'LATENCY',
  'MEMORY',
  'MODULE',
  'OBJECT',
  'PUBSUB',
  'SCRIPT',
  'SLOWLOG',
  'XINFO',
  'FUNCTION',
]);

/** "CONFIG GET" for ['config', 'get', 'maxmemory'], "GET" for ['get', 'k']. */
export function triedCommand(args: readonly string[]): string {
  const first = (args[0] ?? '').toUpperCase();
  const second = args[1];
  return CONTAINERS.has(first) && second !== undefined ? `${first} ${second.toUpperCase()}` : first;
}

/**
 * `reply`'s value, or undefined when the server refused `tried` (then `onRefused` hears which
 * command): for reads a page or a command can do without. Any other error still throws.
 */
export async function unlessRefused<T>(reply: Promise<T>, tried: readonly string[], onRefused: (r: Refusal) => void): Promise<T | undefined> {
  try {
    return await reply;
  } catch (err) {
    const refusal = readRefusal(err, tried);
    if (refusal === undefined) throw err;
    onRefused(refusal);
    return undefined;
  }
}
