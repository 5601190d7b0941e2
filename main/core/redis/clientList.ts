import type { ClientRow } from '../../../app/schemas/clients';
import { escapeBytes } from '../text/escapeBytes';

/** Longest text field kept (a client may name itself with kilobytes). */
export const MAX_FIELD_CHARS = 200;

/**
 * One CLIENT LIST line, read defensively: text fields escaped, numbers that are not numbers read as 0.
 * The Clients page's row without what the page adds (kind, limit share, marks).
 */
export type ListedClient = Omit<ClientRow, 'kind' | 'limitShare' | 'marks'>;

export interface ParsedList {
  clients: ListedClient[];
  /** Non-empty lines with no numeric id or no addr: not a client as far as this reader can tell. */
  unparsed: number;
}

/**
 * Text a server sent, as a person may see it: printable ASCII stays (a backslash doubled),
 * anything else is escaped like redis-cli (`\xHH`, `\n`); cut at MAX_FIELD_CHARS with `…`.
 * `raw` holds one character per byte (latin1), so the bytes are what is escaped.
 */
export function fieldText(raw: string): string {
  let plain = raw.length <= MAX_FIELD_CHARS;
  for (let i = 0; plain && i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    plain = c >= 0x20 && c < 0x7f && c !== 0x5c;
  }
  if (plain) return raw;
  const bytes = Buffer.from(raw, 'latin1');
  const { text, next } = escapeBytes(bytes, 0, bytes.length, { maxChars: MAX_FIELD_CHARS });
  return next < bytes.length ? `${text}…` : text;
}

/** A counter as Redis writes it; anything else (missing, `abc`, `-`) is 0 rather than NaN in a sum. */
function count(v: string | undefined): number {
  if (v === undefined) return 0;
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}

/**
 * One line's `key=value` fields. A token with no `=` belongs to the value before it (a name
 * with a space, from a server that allowed one), so no field swallows the next one's key.
 */
function fieldsOf(line: string): Map<string, string> {
  const fields = new Map<string, string>();
  let last: string | undefined;
  for (const token of line.split(' ')) {
    if (token === '') continue;
    const eq = token.indexOf('=');
    if (eq <= 0) {
      if (last !== undefined) fields.set(last, `${fields.get(last) ?? ''} ${token}`);
      continue;
    }
    last = token.slice(0, eq);
    // The first of a repeated key wins: a later one may be a name's text that looked like a field.
    if (!fields.has(last)) fields.set(last, token.slice(eq + 1));
    else last = undefined;
  }
  return fields;
}

/**
 * CLIENT LIST's reply (bytes: names and commands are whatever clients sent) as clients. The
 * fields are read by name, so a server that adds, drops or reorders fields (Redis 6 has no
 * ssub, 7.2 adds lib-name, Valkey 8 tot-net-in, tot-net-out and tot-cmds) is read the same; a line with no numeric id or no addr is counted
 * as unparsed and skipped.
 */
export function parseClientList(reply: Buffer | string): ParsedList {
  const text = typeof reply === 'string' ? reply : reply.toString('latin1');
  const clients: ListedClient[] = [];
  let unparsed = 0;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line.trim() === '') continue;
    const f = fieldsOf(line);
    const id = f.get('id') ?? '';
    const addr = f.get('addr');
    if (!/^[0-9]{1,20}$/.test(id) || addr === undefined || addr === '') {
      unparsed += 1;
      continue;
    }
    const libName = f.get('lib-name') ?? '';
    const libVer = f.get('lib-ver') ?? '';
    const lib = `${libName}${libVer === '' ? '' : ` ${libVer}`}`;
    const c: ListedClient = {
      id,
      addr: fieldText(addr),
      name: fieldText(f.get('name') ?? ''),
      user: fieldText(f.get('user') ?? ''),
      db: count(f.get('db')),
      cmd: fieldText(f.get('cmd') ?? ''),
      age: count(f.get('age')),
      idle: count(f.get('idle')),
      flags: fieldText(f.get('flags') ?? ''),
      subs: count(f.get('sub')) + count(f.get('psub')) + count(f.get('ssub')),
      qbuf: count(f.get('qbuf')),
      argvMem: count(f.get('argv-mem')),
      multiMem: count(f.get('multi-mem')),
      omem: count(f.get('omem')),
      totMem: count(f.get('tot-mem')),
    };
    if (lib !== '') c.lib = fieldText(lib);
    // Valkey 8 counts each client's traffic; a server without the fields says nothing, not 0.
    const netIn = f.get('tot-net-in');
    const netOut = f.get('tot-net-out');
    const cmds = f.get('tot-cmds');
    if (netIn !== undefined) c.netIn = count(netIn);
    if (netOut !== undefined) c.netOut = count(netOut);
    if (cmds !== undefined) c.cmds = count(cmds);
    clients.push(c);
  }
  return { clients, unparsed };
}

/**
 * The first client named `prefix<id>` other than `own`: how a job sees another
 * process's job of its kind on the same server (each names its connections).
 */
export function otherNamed(list: Buffer | string, prefix: string, own: string): { id: string; addr: string } | undefined {
  const c = parseClientList(list).clients.find((x) => x.name.startsWith(prefix) && x.name !== own);
  return c === undefined ? undefined : { id: c.name.slice(prefix.length), addr: c.addr };
}
