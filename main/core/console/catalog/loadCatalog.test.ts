import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog, type CommandDoc } from '../../../../app/schemas/console';
import { adminClient, closeAdmins, startRedis, useRedis } from '../../../../testing/redis';
import { serverIdentityOfText } from '../../redis/serverIdentity';
import { closeNodeCalls, nodeCallAs } from './catalogTestKit';
import { loadCatalog } from './loadCatalog';

const redis = useRedis();
afterAll(async () => {
  closeNodeCalls();
  await closeAdmins();
});

function find(commands: readonly CommandDoc[], name: string): CommandDoc {
  const [top, sub] = name.split(' ');
  const doc = commands.find((c) => c.name === top);
  const found = sub === undefined ? doc : doc?.subcommands?.find((s) => s.name === name);
  if (found === undefined) throw new Error(`${name} is not in the catalog`);
  return found;
}

/** The summary a command's COMMAND DOCS gives, read from the side: [name, [field, value, ...]]. */
async function docSummary(admin: Redis, name: string): Promise<string | undefined> {
  const reply = (await admin.call('COMMAND', 'DOCS', name)) as unknown[];
  const fields = reply[1] as unknown[];
  const at = fields.indexOf('summary');
  return at < 0 ? undefined : String(fields[at + 1]);
}

async function addUser(name: string, rules: string[]): Promise<{ name: string; password: string }> {
  const admin = await adminClient(redis());
  await admin.call('ACL', 'SETUSER', name, 'reset', 'on', '>pw', '~*', ...rules);
  return { name, password: 'pw' };
}

describe('loadCatalog on a real 7.x server', () => {
  it('merges COMMAND DOCS and COMMAND INFO, with subcommands under their parent', async () => {
    const catalog = await loadCatalog(await nodeCallAs(redis()));
    expect(Catalog.parse(catalog)).toEqual(catalog);
    expect(catalog.source).toBe('docs');
    expect(catalog.note).toBeUndefined();
    const admin = await adminClient(redis());
    const id = serverIdentityOfText(String(await admin.info('server')));
    expect([catalog.server, catalog.version]).toEqual([id.name, id.version]);
    expect(catalog.commands.length).toBe(Number(await admin.call('COMMAND', 'COUNT')));
    expect(catalog.commands.map((c) => c.name)).toEqual([...catalog.commands.map((c) => c.name)].sort());

    const set = find(catalog.commands, 'SET');
    // The summary is the server's own words, which change between versions (7.2: "Sets the string value of a key, ...").
    expect(set.summary).toBe(await docSummary(admin, 'set'));
    expect(set).toMatchObject({
      group: 'string',
      arity: -3,
      firstKey: 1,
      lastKey: 1,
      keyStep: 1,
      flags: expect.arrayContaining(['write', 'denyoom']),
      categories: expect.arrayContaining(['@write', '@string']),
    });
    // Later servers add choices to the condition (Valkey 8.1's IFEQ): NX and XX are in it everywhere.
    expect(set.args?.[2]).toMatchObject({
      name: 'condition',
      type: 'oneof',
      optional: true,
      args: expect.arrayContaining([
        { name: 'nx', type: 'pure-token', token: 'NX' },
        { name: 'xx', type: 'pure-token', token: 'XX' },
      ]),
    });

    const config = find(catalog.commands, 'CONFIG');
    expect(config.subcommands?.map((s) => s.name)).toEqual(expect.arrayContaining(['CONFIG GET', 'CONFIG SET', 'CONFIG REWRITE', 'CONFIG RESETSTAT']));
    expect(find(catalog.commands, 'CONFIG SET')).toMatchObject({
      arity: -4,
      categories: expect.arrayContaining(['@dangerous']),
      tips: expect.arrayContaining(['request_policy:all_nodes']),
      summary: expect.stringMatching(/configuration parameters/),
    });
    // No top-level "CONFIG|SET" rows: subcommands live under their parent only.
    expect(catalog.commands.some((c) => /[| ]/.test(c.name))).toBe(false);
  });

  it('builds the syntax line as the Redis docs print it', async () => {
    const { commands } = await loadCatalog(await nodeCallAs(redis()));
    const syntax = (name: string): string | undefined => find(commands, name).syntax;
    // SET and XADD gain options in later servers (Valkey 8.1's IFEQ, Redis 8.2's XADD KEEPREF): what every server has is checked.
    expect(syntax('SET')).toMatch(
      /^key value \[NX \| XX( \| [^\]]+)?\] \[GET\] \[EX seconds \| PX milliseconds \| EXAT unix-time-seconds \| PXAT unix-time-milliseconds \| KEEPTTL\]$/,
    );
    expect(syntax('ZADD')).toBe('key [NX | XX] [GT | LT] [CH] [INCR] score member [score member ...]');
    expect(syntax('XADD')).toMatch(
      /^key \[NOMKSTREAM\] .*\[<MAXLEN \| MINID> \[= \| ~\] threshold \[LIMIT count\]\] <\* \| id> field value \[field value \.\.\.\]$/,
    );
    expect(syntax('CONFIG SET')).toBe('parameter value [parameter value ...]');
    expect(syntax('CONFIG GET')).toBe('parameter [parameter ...]');
    // A repeated token (multiple_token) is shown again with each value.
    expect(syntax('CLIENT TRACKING')).toBe('<ON | OFF> [REDIRECT client-id] [PREFIX prefix [PREFIX prefix ...]] [BCAST] [OPTIN] [OPTOUT] [NOLOOP]');
    // MIGRATE's empty key is the token "", shown as typed.
    expect(syntax('MIGRATE')).toMatch(/^host port <key \| ""> destination-db timeout \[COPY\] \[REPLACE\] /);
    expect(syntax('DBSIZE')).toBe('');
    expect(syntax('PING')).toBe('[message]');
    expect(find(commands, 'GEORADIUS').summary).toMatch(/Deprecated since 6\.2\.0: use GEOSEARCH and GEOSEARCHSTORE with the BYRADIUS argument instead\.$/);
  });

  it('falls back to COMMAND INFO when the ACL refuses COMMAND DOCS, and says so', async () => {
    const user = await addUser('nodocs', ['+@all', '-command|docs']);
    const catalog = await loadCatalog(await nodeCallAs(redis(), user));
    expect(catalog.source).toBe('info');
    expect(catalog.note).toBe("This server's ACL user may not run COMMAND DOCS: autocomplete shows command names, without syntax or summaries.");
    const flushall = find(catalog.commands, 'FLUSHALL');
    expect(flushall.summary).toBeUndefined();
    expect(flushall.syntax).toBeUndefined();
    expect(flushall.categories).toContain('@dangerous');
    expect(find(catalog.commands, 'CONFIG SET').flags).toContain('admin');
  });

  it('reads the bare COMMAND when COMMAND INFO is refused but COMMAND is not', async () => {
    const user = await addUser('noinfo', ['+@all', '-command|docs', '-command|info']);
    const catalog = await loadCatalog(await nodeCallAs(redis(), user));
    expect(catalog.source).toBe('info');
    expect(find(catalog.commands, 'FLUSHALL').categories).toContain('@dangerous');
  });

  it('falls back to COMMAND LIST names when COMMAND DOCS and INFO are refused', async () => {
    const user = await addUser('namesonly', ['-@all', '+command|list', '+info']);
    const catalog = await loadCatalog(await nodeCallAs(redis(), user));
    expect(catalog.source).toBe('names');
    expect(catalog.note).toBe(
      "This server's ACL user may run neither COMMAND DOCS nor COMMAND INFO: autocomplete shows names only, and the guard holds every command, since nothing says which are safe.",
    );
    expect(catalog.version).not.toBe('');
    expect(catalog.commands).toContainEqual({ name: 'GET' });
    expect(find(catalog.commands, 'CONFIG SET')).toEqual({ name: 'CONFIG SET' });
    expect(catalog.commands.some((c) => c.name.includes('|'))).toBe(false);
    const facts = catalog.commands.flatMap((c) => [c, ...(c.subcommands ?? [])]).flatMap((c) => Object.keys(c));
    expect(new Set(facts)).toEqual(new Set(['name', 'subcommands']));
  });

  it('is empty, with the version blank, when every question is refused', async () => {
    const user = await addUser('nothing', ['-@all']);
    const catalog = await loadCatalog(await nodeCallAs(redis(), user));
    expect(catalog).toEqual({
      source: 'none',
      version: '',
      commands: [],
      note: "This server's ACL user may run neither COMMAND DOCS nor COMMAND INFO, and COMMAND LIST and COMMAND are refused too: there is no autocomplete, and the guard holds every command.",
    });
  });

  it('rejects when the connection is lost rather than passing for a short catalog', async () => {
    const proc = await startRedis();
    const call = await nodeCallAs(proc);
    await proc.stop();
    await expect(loadCatalog(call)).rejects.toThrow(/closed|ECONNRESET|ECONNREFUSED/i);
  });
});
