import { describe, expect, it } from 'vitest';
import type { CommandDoc } from '../../../app/schemas/console';
import { argTokens, findDoc, leadingValues, suggest } from './completions';
import { caretIn } from './lineTokens';

// As COMMAND DOCS of Redis 7.0 describes them (arguments trimmed to what the cases use).
const SET: CommandDoc = {
  name: 'SET',
  summary: 'Set the string value of a key',
  args: [
    { name: 'key', type: 'key' },
    { name: 'value', type: 'string' },
    {
      name: 'condition',
      type: 'oneof',
      optional: true,
      args: [
        { name: 'nx', type: 'pure-token', token: 'NX' },
        { name: 'xx', type: 'pure-token', token: 'XX' },
      ],
    },
    { name: 'get', type: 'pure-token', token: 'GET', optional: true },
    {
      name: 'expiration',
      type: 'oneof',
      optional: true,
      args: [
        { name: 'seconds', type: 'integer', token: 'EX' },
        { name: 'milliseconds', type: 'integer', token: 'PX' },
        { name: 'keepttl', type: 'pure-token', token: 'KEEPTTL' },
      ],
    },
  ],
};
const HSET: CommandDoc = {
  name: 'HSET',
  syntax: 'key field value [field value ...]',
  args: [
    { name: 'key', type: 'key' },
    {
      name: 'data',
      type: 'block',
      multiple: true,
      args: [
        { name: 'field', type: 'string' },
        { name: 'value', type: 'string' },
      ],
    },
  ],
};
const ZRANGE: CommandDoc = {
  name: 'ZRANGE',
  args: [
    { name: 'key', type: 'key' },
    { name: 'start', type: 'string' },
    { name: 'stop', type: 'string' },
    {
      name: 'limit',
      type: 'block',
      token: 'LIMIT',
      optional: true,
      args: [
        { name: 'offset', type: 'integer' },
        { name: 'count', type: 'integer' },
      ],
    },
    { name: 'withscores', type: 'pure-token', token: 'WITHSCORES', optional: true },
  ],
};
const CONFIG: CommandDoc = {
  name: 'CONFIG',
  subcommands: [
    { name: 'CONFIG GET', args: [{ name: 'parameter', type: 'string', multiple: true }] },
    {
      name: 'CONFIG SET',
      args: [
        {
          name: 'data',
          type: 'block',
          multiple: true,
          args: [
            { name: 'parameter', type: 'string' },
            { name: 'value', type: 'string' },
          ],
        },
      ],
    },
    { name: 'CONFIG RESETSTAT' },
  ],
};
const COMMANDS = [SET, HSET, { name: 'HSETNX' }, { name: 'HSTRLEN' }, { name: 'GET' }, { name: 'GETDEL' }, ZRANGE, CONFIG];

const at = (line: string, forced = false) => suggest(COMMANDS, caretIn(line, line.length), forced).map((s) => s.value);

describe('suggest', () => {
  it('completes command names in any case, exact match first', () => {
    expect(at('hse')).toEqual(['HSET', 'HSETNX']);
    expect(at('get')).toEqual(['GET', 'GETDEL']);
    expect(at('')).toEqual([]);
    expect(at('', true)).toHaveLength(COMMANDS.length);
  });

  it('offers a subcommand as soon as the command is typed, filtered by what follows', () => {
    expect(at('config ')).toEqual(['GET', 'RESETSTAT', 'SET']);
    expect(at('CONFIG re')).toEqual(['RESETSTAT']);
  });

  it("offers a command's option words once its leading values are typed, not on the key", () => {
    expect(at('SET e')).toEqual([]);
    expect(at('SET k v e')).toEqual(['EX']);
    expect(at('SET k v ', true)).toEqual(['EX', 'GET', 'KEEPTTL', 'NX', 'PX', 'XX']);
    expect(at('ZRANGE z 0 -1 w')).toEqual(['WITHSCORES']);
  });

  it('leaves out a word already typed, and completes nothing inside quotes or after an unknown command', () => {
    expect(at('SET k v NX ', true)).not.toContain('NX');
    expect(at('SET k "v')).toEqual([]);
    expect(at('NOSUCH a ', true)).toEqual([]);
  });
});

describe('the docs behind the suggestions', () => {
  it('finds the subcommand a line types, else the command', () => {
    expect(findDoc(COMMANDS, ['config', 'set', 'maxmemory'])?.name).toBe('CONFIG SET');
    expect(findDoc(COMMANDS, ['config', 'nosuch'])?.name).toBe('CONFIG');
    expect(findDoc(COMMANDS, ['hset'])).toBe(HSET);
    expect(findDoc(COMMANDS, [''])).toBeUndefined();
  });

  it('words a token with what follows it, nested ones too', () => {
    expect(argTokens(ZRANGE.args).map((t) => t.detail)).toEqual(['LIMIT offset count', 'WITHSCORES']);
    expect(argTokens(SET.args).find((t) => t.token === 'EX')?.detail).toBe('EX seconds');
  });

  it('counts the plain values before any option', () => {
    expect(leadingValues(SET.args)).toBe(2);
    expect(leadingValues(HSET.args)).toBe(1);
    expect(leadingValues(ZRANGE.args)).toBe(3);
  });
});
