import type { Catalog, CommandDoc } from '../../../../app/schemas/console';
import { serverTitle } from '../../../../app/redis/serverTitle';
import { serverIdentityOfText, type ServerIdentity } from '../../redis/serverIdentity';
import { byName, mergeCatalog } from './mergeCatalog';
import { parseCommandDocs } from './parseCommandDocs';
import { parseCommandInfo, type InfoEntry } from './parseCommandInfo';
import { bothRefusedWords, refusalOf, refusalWords, type Refusal } from './refusal';
import { commandNameOf, listOf, textOf } from './replyShape';

/** Send one command to the node asked (an ioredis `call`: RESP2 replies as nested arrays). */
export type NodeCall = (args: string[]) => Promise<unknown>;

type Answer = { value: unknown } | { refused: Refusal };

/** The reply, or the server's refusal of the command; other failures (the connection) are thrown. */
async function ask(call: NodeCall, args: string[]): Promise<Answer> {
  try {
    return { value: await call(args) };
  } catch (err) {
    const refused = refusalOf(err);
    if (refused === undefined) throw err;
    return { refused };
  }
}

/** Who the server is (INFO server), or undefined when INFO is refused or names no version. */
function identityOf(answer: Answer): ServerIdentity | undefined {
  if (!('value' in answer)) return undefined;
  const id = serverIdentityOfText(textOf(answer.value) ?? '');
  return id.version === '' ? undefined : id;
}

const EMPTY: Refusal = { kind: 'empty', message: '' };

/**
 * The node's commands from its own COMMAND DOCS and COMMAND INFO, merged (subcommands
 * named "CONFIG SET"); COMMAND INFO alone, or names alone (COMMAND LIST / COMMAND) when the
 * server or its ACL refuses more, saying why in `note`.
 *
 * Before 7.0 there is no COMMAND DOCS, and COMMAND INFO with no names answers nothing: the
 * bare COMMAND gives the same rows there. A refusal is an error reply (NOPERM, ERR unknown…);
 * a lost connection or a timeout rejects instead of passing for a short catalog.
 */
export async function loadCatalog(call: NodeCall): Promise<Catalog> {
  const [server, docsAnswer, infoAnswer] = await Promise.all([ask(call, ['INFO', 'server']), ask(call, ['COMMAND', 'DOCS']), ask(call, ['COMMAND', 'INFO'])]);
  const id = identityOf(server);
  const version = id?.version ?? '';
  const shown = id === undefined ? '' : serverTitle(id.name, id.version);
  const own = { version, ...(id === undefined ? {} : { server: id.name }) };

  const docs = 'value' in docsAnswer ? parseCommandDocs(docsAnswer.value) : undefined;
  const docsRefusal = 'refused' in docsAnswer ? docsAnswer.refused : docs?.size === 0 ? EMPTY : undefined;

  let rows = 'value' in infoAnswer ? parseCommandInfo(infoAnswer.value) : new Map<string, InfoEntry>();
  if (!hasFacts(rows)) {
    const bare = await ask(call, ['COMMAND']);
    const bareRows = 'value' in bare ? parseCommandInfo(bare.value) : new Map<string, InfoEntry>();
    if (hasFacts(bareRows) || bareRows.size > rows.size) rows = bareRows;
  }
  const usableInfo = hasFacts(rows) ? rows : undefined;
  const infoRefusal = 'refused' in infoAnswer ? infoAnswer.refused : EMPTY;
  const usableDocs = docsRefusal === undefined ? docs : undefined;

  if (usableDocs !== undefined) {
    const commands = mergeCatalog(usableDocs, usableInfo);
    if (usableInfo !== undefined) return { source: 'docs', ...own, commands };
    return {
      source: 'docs',
      ...own,
      commands,
      note: `${sentence(refusalWords('COMMAND INFO', infoRefusal, shown))}: the guard holds every command, since nothing says which are safe.`,
    };
  }
  const whyNoDocs = refusalWords('COMMAND DOCS', docsRefusal ?? EMPTY, shown);
  if (usableInfo !== undefined) {
    return {
      source: 'info',
      ...own,
      commands: mergeCatalog(undefined, usableInfo),
      note: `${sentence(whyNoDocs)}: autocomplete shows command names, without syntax or summaries.`,
    };
  }
  const whyNeither = sentence(bothRefusedWords(docsRefusal ?? EMPTY, infoRefusal, shown));
  const names = await commandNames(call, rows);
  if (names.length > 0) {
    return {
      source: 'names',
      ...own,
      commands: names,
      note: `${whyNeither}: autocomplete shows names only, and the guard holds every command, since nothing says which are safe.`,
    };
  }
  return {
    source: 'none',
    ...own,
    commands: [],
    note: `${whyNeither}, and COMMAND LIST and COMMAND are refused too: there is no autocomplete, and the guard holds every command.`,
  };
}

/** Rows that say more than a name: an arity, flags or categories. */
function hasFacts(rows: ReadonlyMap<string, InfoEntry>): boolean {
  for (const row of rows.values()) if (row.flags !== undefined || row.categories !== undefined) return true;
  return false;
}

/**
 * COMMAND LIST (7.0+: subcommands as "config|set"), else the names of rows COMMAND INFO /
 * COMMAND gave without facts; a subcommand under its parent, as in a full catalog.
 */
async function commandNames(call: NodeCall, rows: ReadonlyMap<string, InfoEntry>): Promise<CommandDoc[]> {
  const listed = await ask(call, ['COMMAND', 'LIST']);
  const names: string[] = [];
  if ('value' in listed) {
    for (const item of listOf(listed.value)) {
      const name = commandNameOf(item);
      if (name !== undefined) names.push(name.toLowerCase());
    }
  }
  const top = new Map<string, CommandDoc>();
  for (const name of names.length > 0 ? names : rows.keys()) {
    const [parent = '', ...sub] = name.toUpperCase().split('|');
    let doc = top.get(parent);
    if (doc === undefined) top.set(parent, (doc = { name: parent }));
    if (sub.length === 0 || parent === '') continue;
    const full = `${parent} ${sub.join(' ')}`;
    doc.subcommands ??= [];
    if (!doc.subcommands.some((s) => s.name === full)) doc.subcommands.push({ name: full });
  }
  const out = [...top.values()].filter((d) => d.name !== '').sort(byName);
  for (const doc of out) doc.subcommands?.sort(byName);
  return out;
}

function sentence(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
