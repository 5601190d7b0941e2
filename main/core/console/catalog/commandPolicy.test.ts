import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog, CommandDoc } from '../../../../app/schemas/console';
import { useRedis } from '../../../../testing/redis';
import { closeNodeCalls, nodeCallAs } from './catalogTestKit';
import { findCommand, heldFor, isBlocking, isRead, isWrite, keyIndexes, KEYS_HOLD_DB_SIZE, requestPolicy } from './commandPolicy';
import { loadCatalog } from './loadCatalog';

const redis = useRedis();
let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(await nodeCallAs(redis()));
});
afterAll(closeNodeCalls);

/** The doc of a command line, as the console will look it up. */
function doc(line: string): CommandDoc | undefined {
  return findCommand(catalog, line.split(' '));
}
function held(line: string, dbSize = 0): ReturnType<typeof heldFor> {
  const args = line.split(' ');
  return heldFor(findCommand(catalog, args), args, { dbSize });
}

describe('the guard, from the real server catalog', () => {
  it('holds every example of the issue, and prints the whole held set', () => {
    const all = catalog.commands.flatMap((c) => [c, ...(c.subcommands ?? [])]);
    const heldSet = all.filter((d) => heldFor(d, d.name.split(' '), { dbSize: 0 }) !== undefined).map((d) => d.name);
    console.log(`${catalog.server ?? 'redis'} ${catalog.version}: ${heldSet.length} of ${all.length} commands held: ${heldSet.join(', ')}`);
    const examples = ['FLUSHALL', 'FLUSHDB', 'SHUTDOWN', 'DEBUG', 'CONFIG SET', 'CONFIG REWRITE', 'CONFIG RESETSTAT', 'SWAPDB'];
    examples.push('SCRIPT FLUSH', 'FUNCTION FLUSH', 'CLIENT KILL', 'REPLICAOF', 'CLUSTER RESET', 'CLUSTER FAILOVER');
    expect(heldSet).toEqual(expect.arrayContaining(examples));
    expect(heldSet).toEqual(expect.arrayContaining(['CONFIG GET', 'CLIENT PAUSE', 'CLUSTER BUMPEPOCH', 'ACL SETUSER']));
    for (const notHeld of ['GET', 'SET', 'INFO', 'CLIENT LIST', 'SLOWLOG GET', 'SCAN', 'DBSIZE', 'HGETALL']) {
      expect(heldSet, notHeld).not.toContain(notHeld);
    }
    expect(heldSet).not.toEqual(expect.arrayContaining(['LATENCY DOCTOR', 'LASTSAVE', 'MODULE LIST', 'PING', 'FUNCTION LOAD']));
  });

  it('says why in the server words, and what to type back', () => {
    expect(held('flushall')).toEqual({
      reason: 'dangerous',
      why: 'The server puts FLUSHALL in @dangerous ("Remove all keys from all databases"), and flags it write. Type FLUSHALL to run it.',
      confirmWith: 'FLUSHALL',
    });
    expect(held('config set maxmemory 1mb')).toMatchObject({ reason: 'dangerous', confirmWith: 'CONFIG SET' });
    expect(held('Client Kill ID 7')?.why).toMatch(/^The server puts CLIENT KILL in @dangerous \("Kill the connection of a client"\)\. /);
  });

  it('holds SCRIPT FLUSH and FUNCTION FLUSH, which 7.0 leaves out of @dangerous, as writes to every node', () => {
    const script = doc('SCRIPT FLUSH');
    const fn = doc('FUNCTION FLUSH');
    // The premise, from the server: neither is @dangerous, both go to every node or shard.
    expect(script?.categories).not.toContain('@dangerous');
    expect(fn?.categories).not.toContain('@dangerous');
    expect(requestPolicy(script)).toBe('all_nodes');
    expect(requestPolicy(fn)).toBe('all_shards');
    expect(held('SCRIPT FLUSH ASYNC')).toMatchObject({ reason: 'writesAll', confirmWith: 'SCRIPT FLUSH' });
    expect(held('script flush')?.why).toMatch(
      /^The server sends SCRIPT FLUSH to every node \(request_policy:all_nodes\) and wants nothing back from each but success; /,
    );
    expect(held('FUNCTION FLUSH')?.why).toMatch(/^The server sends FUNCTION FLUSH to every shard \(request_policy:all_shards\) and flags it write; /);
    // Fanned out too, but naming what they act on (a library, a script), or asking a question.
    for (const runs of ['FUNCTION LOAD x', 'FUNCTION DELETE lib', 'SCRIPT LOAD x', 'SCRIPT EXISTS a', 'PING', 'DBSIZE', 'RANDOMKEY', 'WAIT 0 0']) {
      expect(held(runs), runs).toBeUndefined();
    }
  });

  it('holds KEYS only on a DB over 10,000 keys, pointing to the Keys page', () => {
    expect(doc('KEYS')?.categories).toContain('@dangerous');
    expect(held('KEYS *', KEYS_HOLD_DB_SIZE)).toBeUndefined();
    expect(heldFor(doc('KEYS'), ['KEYS', '*'], {})).toBeUndefined();
    const big = held('keys user:*', 25_000);
    expect(big).toMatchObject({ reason: 'keys', confirmWith: 'KEYS' });
    expect(big?.why).toContain('this DB holds 25,000 keys (the guard holds it past 10,000)');
    expect(big?.why).toContain('The Keys page');
    // Other commands with unordered output read one key: no KEYS rule for them.
    for (const runs of ['SMEMBERS s', 'HKEYS h', 'HGETALL h']) expect(held(runs, 1_000_000), runs).toBeUndefined();
  });

  it('holds a command nothing describes: unknown to the catalog, or named only', () => {
    expect(held('NOSUCHCOMMAND a b')).toEqual({
      reason: 'dangerous',
      why: 'COMMAND INFO does not describe NOSUCHCOMMAND (it is refused, or there is no such command), so nothing says it is safe. Type NOSUCHCOMMAND to run it.',
      confirmWith: 'NOSUCHCOMMAND',
    });
    const namesOnly: Catalog = { source: 'names', version: '', commands: [{ name: 'GET' }] };
    expect(heldFor(findCommand(namesOnly, ['get', 'k']), ['get', 'k'], {})).toMatchObject({ reason: 'dangerous', confirmWith: 'GET' });
  });
});

describe('command facts from the real catalog', () => {
  it('finds subcommands in any case, and the parent for an unknown one', () => {
    expect(doc('config set')?.name).toBe('CONFIG SET');
    expect(doc('CoNfIg GeT')?.name).toBe('CONFIG GET');
    expect(doc('CONFIG NOPE')?.name).toBe('CONFIG');
    expect(doc('get key')?.name).toBe('GET');
    expect(findCommand(catalog, [])).toBeUndefined();
  });

  it('tells reads, writes and blocking commands from categories and flags', () => {
    expect(isRead(doc('GET'))).toBe(true);
    expect(isRead(doc('SET'))).toBe(false);
    expect(isRead(doc('CONFIG GET'))).toBe(false);
    expect(isRead(undefined)).toBe(false);
    expect(isWrite(doc('SET'))).toBe(true);
    expect(isWrite(doc('GET'))).toBe(false);
    expect(isWrite(doc('FUNCTION FLUSH'))).toBe(true);
    expect(isWrite(undefined)).toBe(true);
    expect(isBlocking(doc('BLPOP'))).toBe(true);
    expect(isBlocking(doc('XREAD'))).toBe(true);
    expect(isBlocking(doc('GET'))).toBe(false);
    expect(isBlocking(doc('SET'))).toBe(false);
    // Whether a command blocks is the server's word (Redis 7.2 flags WAIT blocking, 7.0 does not): the flag or the category decides.
    const get = doc('GET') as CommandDoc;
    expect(isBlocking({ ...get, flags: [...(get.flags ?? []), 'blocking'] })).toBe(true);
    expect(isBlocking({ ...get, categories: [...(get.categories ?? []), '@blocking'] })).toBe(true);
    expect(requestPolicy(doc('INFO'))).toBe('all_shards');
    expect(requestPolicy(doc('GET'))).toBeUndefined();
  });

  it('gives key positions from first key, last key and step', () => {
    expect(keyIndexes(doc('GET'), 2)).toEqual([1]);
    expect(keyIndexes(doc('MSET'), 7)).toEqual([1, 3, 5]);
    expect(keyIndexes(doc('DEL'), 4)).toEqual([1, 2, 3]);
    expect(keyIndexes(doc('LMOVE'), 5)).toEqual([1, 2]);
    expect(keyIndexes(doc('OBJECT ENCODING'), 3)).toEqual([2]);
    expect(keyIndexes(doc('PING'), 1)).toEqual([]);
    expect(keyIndexes(doc('EVAL'), 5)).toEqual([]); // movablekeys: COMMAND GETKEYS knows
    expect(keyIndexes(doc('ZUNIONSTORE'), 5)).toEqual([]);
    expect(keyIndexes(doc('GET'), 1)).toEqual([]); // the key is missing
    expect(keyIndexes(undefined, 3)).toEqual([]);
  });
});

describe('the guard on servers without tips or categories', () => {
  it('before 7.0 (no tips) holds every @dangerous command: nothing marks a report', () => {
    const info6: CommandDoc = { name: 'INFO', arity: -1, flags: ['random', 'loading', 'stale'], categories: ['@slow', '@dangerous'] };
    expect(heldFor(info6, ['INFO'], {})?.reason).toBe('dangerous');
    // KEYS is still told by its 6.x flag (sort_for_script, what became nondeterministic_output_order).
    const keys6: CommandDoc = { name: 'KEYS', arity: 2, flags: ['readonly', 'sort_for_script'], categories: ['@keyspace', '@read', '@slow', '@dangerous'] };
    expect(heldFor(keys6, ['KEYS', '*'], { dbSize: 5 })).toBeUndefined();
    expect(heldFor(keys6, ['KEYS', '*'], { dbSize: 50_000 })?.reason).toBe('keys');
  });

  it('before 6.0 (no categories) holds what is flagged write or admin', () => {
    const flushall5: CommandDoc = { name: 'FLUSHALL', arity: -1, flags: ['write'] };
    const config5: CommandDoc = { name: 'CONFIG', arity: -2, flags: ['admin', 'noscript', 'loading', 'stale'] };
    const get5: CommandDoc = { name: 'GET', arity: 2, flags: ['readonly', 'fast'] };
    expect(heldFor(flushall5, ['FLUSHALL'], {})?.why).toMatch(/no ACL categories \(Redis before 6\.0\).*flags it write/);
    expect(heldFor(config5, ['CONFIG', 'GET', 'x'], {})?.why).toMatch(/flags it admin/);
    expect(heldFor(get5, ['GET', 'k'], {})).toBeUndefined();
  });
});
