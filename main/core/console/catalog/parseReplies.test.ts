import { describe, expect, it } from 'vitest';
import { Catalog } from '../../../../app/schemas/console';
import { mergeCatalog } from './mergeCatalog';
import { parseCommandDocs } from './parseCommandDocs';
import { parseCommandInfo } from './parseCommandInfo';
import { refusalOf } from './refusal';
import { MAX_LIST, MAX_TEXT_CHARS } from './replyShape';

// Replies are untrusted (a proxy, a fork or a module answers the port): these shapes are ones a
// real server does not send, so they are built by hand; the real ones are in loadCatalog.test.ts.
describe('parsing hostile COMMAND INFO / COMMAND DOCS replies', () => {
  it('skips rows without a usable name and fields of the wrong type', () => {
    const rows = parseCommandInfo([
      null,
      42,
      'get',
      ['bad name', 2, [], 1, 1, 1],
      ['line\nbreak', 2, [], 1, 1, 1],
      ['', 2],
      [['nested'], 2],
      ['GET', '2', ['readonly', 7, null], 1, 1, 1, ['@read', { x: 1 }], 'not a list', [], 'not a list'],
      ['get', -99, ['write']], // a second GET: the first is kept
      ['weird', 'many', { flags: 1 }, 1.5, null, 'x'],
    ]);
    expect([...rows.keys()]).toEqual(['get', 'weird']);
    expect(rows.get('get')).toEqual({
      arity: 2,
      flags: ['readonly'],
      firstKey: 1,
      lastKey: 1,
      keyStep: 1,
      categories: ['@read'],
      subcommands: new Map(),
    });
    expect(rows.get('weird')).toEqual({ subcommands: new Map() });
    expect(parseCommandInfo('ERR')).toEqual(new Map());
    expect(parseCommandInfo({ length: 5 })).toEqual(new Map());
  });

  it('bounds lists and texts, and reads one level of subcommands', () => {
    const many = Array.from({ length: MAX_LIST + 50 }, (_, i) => [`c${i}`, 1, []]);
    expect(parseCommandInfo(many).size).toBe(MAX_LIST);
    const grandchild = ['a|b|c', 2, []];
    const child = ['a|b', 2, [], 0, 0, 0, [], [], [], [grandchild]];
    const deep = [['a', -2, [], 0, 0, 0, [], [], [], [child]]];
    const a = parseCommandInfo(deep).get('a');
    expect(a?.subcommands.get('a|b')?.subcommands.size).toBe(0);

    const long = 'x'.repeat(MAX_TEXT_CHARS * 3);
    const docs = parseCommandDocs(['big', ['summary', long, 'group', Buffer.from('string'), 'since', 7]]);
    expect(docs.get('big')?.summary).toHaveLength(MAX_TEXT_CHARS);
    expect(docs.get('big')?.group).toBe('string');
    expect(docs.get('big')?.since).toBeUndefined();
  });

  it('reads arguments defensively: missing names skipped, nesting bounded, odd flags ignored', () => {
    let nested: unknown[] = ['name', 'leaf', 'type', 'string'];
    for (let i = 0; i < 20; i++) nested = ['name', `b${i}`, 'type', 'block', 'arguments', [nested]];
    const docs = parseCommandDocs([
      'cmd',
      [
        'summary',
        'A command',
        'arguments',
        [
          ['type', 'string'], // no name
          ['name', 'k', 'type', 'key', 'flags', 'optional'], // flags not a list
          ['name', 'opt', 'type', 'oneof', 'flags', ['optional', 'bogus'], 'arguments', 'nope'],
          nested,
          'junk',
        ],
      ],
      7,
      ['summary', 'a name that is not a string'],
      'odd', // a key without a value
    ]);
    const cmd = docs.get('cmd');
    expect([...docs.keys()]).toEqual(['cmd']);
    expect(cmd?.args?.slice(0, 2)).toEqual([
      { name: 'k', type: 'key' },
      { name: 'opt', type: 'oneof', optional: true },
    ]);
    let depth = 0;
    for (let a = cmd?.args?.[2]; a?.args !== undefined; a = a.args[0]) depth++;
    expect(depth).toBe(7); // read to MAX_ARG_DEPTH (8) levels: the 8th has no parts
    expect(cmd?.syntax?.startsWith('k [] ')).toBe(true);
  });

  it('keeps a catalog built from hostile parts valid against the contract', () => {
    const info = parseCommandInfo([['x|y', 1, ['a'], 0, 0, 0, ['@b'], ['t'], [], [['x|y|z', 2, []]]]]);
    const docs = parseCommandDocs(['x|y', ['summary', 's', 'subcommands', ['x|y|z', ['summary', 'z']]]]);
    const commands = mergeCatalog(docs, info);
    expect(Catalog.parse({ source: 'docs', version: '', commands }).commands).toEqual(commands);
    expect(commands.map((c) => [c.name, c.subcommands?.map((s) => s.name)])).toEqual([['X|Y', ['X|Y Y Z']]]);
  });
});

describe('refusalOf', () => {
  const replyError = (message: string): Error => Object.assign(new Error(message), { name: 'ReplyError' });
  it('tells an ACL refusal, a missing command and another ERR from failures that are not answers', () => {
    expect(refusalOf(replyError("NOPERM User u has no permissions to run the 'command|docs' command"))?.kind).toBe('acl');
    expect(refusalOf(replyError("ERR unknown subcommand 'DOCS'. Try COMMAND HELP."))?.kind).toBe('missing');
    expect(refusalOf(replyError("ERR Unknown subcommand or wrong number of arguments for 'DOCS'"))?.kind).toBe('missing');
    expect(refusalOf(replyError('ERR something else'))?.kind).toBe('error');
    expect(refusalOf(replyError('LOADING Redis is loading the dataset in memory'))).toBeUndefined();
    expect(refusalOf(new Error('Connection is closed.'))).toBeUndefined();
    expect(refusalOf(Object.assign(new Error('denied'), { code: 'NOPERM' }))?.kind).toBe('acl');
    expect(refusalOf(replyError(`ERR ${'x'.repeat(1000)}`))?.message).toHaveLength(200);
  });
});
