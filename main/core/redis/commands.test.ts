import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_KEY, NAMED_COMMANDS, hasSubcommand, inTransaction, keyCountOf, keysOf, reachesOtherDb, replicates, takesKey } from '../../../app/redis/commands';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';

const redis = useRedis();

/** What COMMAND INFO says of one command: its flags, first/last/step key, and subcommands. */
interface ServerFacts {
  flags: string[];
  first: number;
  last: number;
  step: number;
  subcommands: number;
}
const server = new Map<string, ServerFacts>();

beforeAll(async () => {
  const admin = await adminClient(redis());
  const rows = (await admin.call('COMMAND', 'INFO')) as unknown[][];
  for (const r of rows) {
    server.set(String(r[0]).toUpperCase(), {
      flags: (r[2] as string[]).map(String),
      first: Number(r[3]),
      last: Number(r[4]),
      step: Number(r[5]),
      subcommands: Array.isArray(r[9]) ? r[9].length : 0,
    });
  }
});
afterAll(() => closeAdmins());

describe('the command table says what the server says', () => {
  it('places the keys of every command it names where COMMAND INFO does', () => {
    const disagree: string[] = [];
    for (const name of NAMED_COMMANDS) {
      const s = server.get(name);
      if (s === undefined) continue; // newer than this server (WAITAOF is 7.2)
      const ours = keysOf(name);
      const movable = s.flags.includes('movablekeys');
      const agrees =
        ours === 'none'
          ? s.first === 0 || movable // no key, or keys the table does not place (XREAD's after STREAMS)
          : 'step' in ours
            ? !movable && ours.first === s.first && ours.last === s.last && ours.step === s.step
            : movable; // numkeys: the server says its keys move with an argument
      if (!agrees) disagree.push(`${name}: ours ${JSON.stringify(ours)}, server ${s.first},${s.last},${s.step}${movable ? ' movablekeys' : ''}`);
    }
    expect(disagree).toEqual([]);
  });

  it('names exactly the commands that have subcommands', () => {
    const withSubcommands = [...server].filter(([, s]) => s.subcommands > 0).map(([name]) => name);
    expect(withSubcommands.length).toBeGreaterThan(10);
    expect(withSubcommands.filter((n) => !hasSubcommand(n))).toEqual([]);
    expect(NAMED_COMMANDS.filter((n) => hasSubcommand(n) && server.has(n) && !withSubcommands.includes(n))).toEqual([]);
  });

  it('keeps every command the server flags write on the replica stream', () => {
    const writes = [...server].filter(([, s]) => s.flags.includes('write')).map(([name]) => name);
    expect(writes).toContain('SET');
    expect(writes.filter((n) => !replicates(n))).toEqual([]);
  });
});

describe('what the table answers', () => {
  it('takes argument 1 as a key only where it is one', () => {
    for (const name of ['GET', 'SET', 'HSET', 'EXPIRE', 'WATCH', 'ZUNIONSTORE', 'DEL', 'SOMEMODULE.CMD']) expect([name, takesKey(name)]).toEqual([name, true]);
    for (const name of ['AUTH', 'CONFIG', 'CLIENT', 'EVAL', 'BITOP', 'XREAD', 'PUBLISH', 'SPUBLISH', 'KEYS', 'XINFO', 'ZUNION', 'SCAN'])
      expect([name, takesKey(name)]).toEqual([name, false]);
    expect(keysOf('SOMEMODULE.CMD')).toBe(FIRST_KEY);
  });

  it('routes shard channels by their slot though they are not keys', () => {
    expect(keysOf('SPUBLISH')).toEqual({ first: 1, last: 1, step: 1 });
    expect(keysOf('PUBLISH')).toBe('none');
  });

  it('tells writes from commands that never reach a replica', () => {
    expect(['SET', 'EVAL', 'DEL', 'SOMEMODULE.CMD'].map(replicates)).toEqual([true, true, true, true]);
    expect(['GET', 'INFO', 'SELECT', 'CLIENT', 'HGETALL'].map(replicates)).toEqual([false, false, false, false, false]);
  });

  it('knows which commands reach another DB, and which belong to a transaction', () => {
    expect(['SELECT', 'SWAPDB', 'MOVE', 'FLUSHALL', 'FLUSHDB', 'SET'].map(reachesOtherDb)).toEqual([true, true, true, true, false, false]);
    expect(['MULTI', 'EXEC', 'DISCARD', 'WATCH', 'UNWATCH', 'SET'].map(inTransaction)).toEqual([true, true, true, true, true, false]);
  });

  it('says how a command changes the number of keys', () => {
    expect(['SET', 'HSET', 'MSET', 'EXPIRE', 'PERSIST', 'DEL', 'RENAME', 'SOMEMODULE.CMD'].map(keyCountOf)).toEqual([
      'creates',
      'creates',
      'pairs',
      'timeout',
      'neutral',
      'unknown',
      'unknown',
      'unknown',
    ]);
  });
});
