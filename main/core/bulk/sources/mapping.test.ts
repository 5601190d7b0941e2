import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../app/errors';
import type { Mapping } from '../types';
import { GROUP_CAP } from './mapping';
import { inputError, RecordingTracker, run, runCollecting } from './sourceTestKit';

const csv = (text: string, mapping: Mapping) => run(text, { format: 'csv', mapping });

describe('mapping: key templates', () => {
  it('fills a template from several columns, literal text between', async () => {
    const r = await csv('id,region,v\n7,eu,x\n', { key: 'user:{id}:{region}', type: 'string', value: 'v' });
    expect(r.commands).toEqual([['SET', 'user:7:eu', 'x']]);
  });

  it('writes {{ and }} as literal braces, for cluster hash tags', async () => {
    const r = await csv('id,v\n7,x\n', { key: '{{user:{id}}}:profile', type: 'string', value: 'v' });
    expect(r.commands[0]?.[1]).toBe('{user:7}:profile');
  });

  it('reports a template column the header lacks at the header line, listing the columns', async () => {
    const e = await inputError('\nid,name,email\n1,a,b\n', { format: 'csv', mapping: { key: 'user:{idx}', type: 'string', value: 'name' } });
    expect(e.message).toBe("in:2: key template names column 'idx', which the header doesn't have; columns: id, name, email");
  });

  it('reports a value, member or score column the header lacks', async () => {
    const e = await inputError('id,name\n1,a\n', { format: 'csv', mapping: { key: '{id}', type: 'set', member: 'tag' } });
    expect(e.message).toBe("in:1: member names column 'tag', which the header doesn't have; columns: id, name");
  });

  it('refuses a malformed template as a validation error on mapping.key', async () => {
    for (const key of ['user:{id', 'user:}', 'user:{}']) {
      const { error } = await runCollecting('id,v\n1,x\n', { format: 'csv', mapping: { key, type: 'string', value: 'v' } });
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).field).toBe('mapping.key');
    }
  });
});

describe('mapping: record types', () => {
  it('string with ttl: SET key value EX ttl', async () => {
    const r = await csv('id,v\n1,a\n', { key: 'k:{id}', type: 'string', value: 'v', ttl: 60 });
    expect(r.commands).toEqual([['SET', 'k:1', 'a', 'EX', '60']]);
  });

  it('hash: every column not in the key becomes a field, and rows of one key make one HSET', async () => {
    const r = await csv('id,name,city\n1,Ann,Oslo\n1,Anna,Bergen\n2,Bob,Rome\n', { key: 'user:{id}', type: 'hash' });
    expect(r.commands).toEqual([
      ['HSET', 'user:1', 'name', 'Ann', 'city', 'Oslo', 'name', 'Anna', 'city', 'Bergen'],
      ['HSET', 'user:2', 'name', 'Bob', 'city', 'Rome'],
    ]);
    expect(r.lines).toEqual([2, 4]);
  });

  it('hash with fields: only those columns, and EXPIRE once per key after its HSET', async () => {
    const r = await csv('id,name,city\n1,Ann,Oslo\n2,Bob,Rome\n', { key: 'user:{id}', type: 'hash', fields: ['city'], ttl: 5 });
    expect(r.commands).toEqual([
      ['HSET', 'user:1', 'city', 'Oslo'],
      ['EXPIRE', 'user:1', '5'],
      ['HSET', 'user:2', 'city', 'Rome'],
      ['EXPIRE', 'user:2', '5'],
    ]);
    expect(r.lines).toEqual([2, 2, 3, 3]);
  });

  it('hash whose key uses every column is refused at the header', async () => {
    const e = await inputError('id\n1\n', { format: 'csv', mapping: { key: '{id}', type: 'hash' } });
    expect(e.message).toMatch(/^in:1: a hash needs at least one field column/);
  });

  it('refuses a repeated header name a hash taking every column would collapse, naming the columns', async () => {
    const e = await inputError('id,name,city,name\n1,Ann,Oslo,Anna\n', { format: 'csv', mapping: { key: 'user:{id}', type: 'hash' } });
    expect(e.message).toBe(
      "in:1: a hash taking every column would write field 'name' from columns 2 and 4 and keep only the last; rename one, or list the fields to load; columns: id, name, city, name",
    );
    const tsv = await inputError('id\ta\ta\ta\n1\tx\ty\tz\n', { format: 'tsv', mapping: { key: '{id}', type: 'hash' } });
    expect(tsv.message).toMatch(/field 'a' from columns 2, 3 and 4 /);
  });

  it('refuses a repeated header name the mapping names, wherever it names it', async () => {
    const text = 'id,v,v,id\n1,a,b,2\n';
    for (const [mapping, role] of [
      [{ key: 'k:{id}', type: 'string', value: 'x' }, 'key template'],
      [{ key: 'k', type: 'string', value: 'v' }, 'value'],
      [{ key: 'k', type: 'hash', fields: ['v'] }, 'fields'],
      [{ key: 'k', type: 'set', member: 'v' }, 'member'],
    ] as const) {
      const named = role === 'key template' ? 'id' : 'v';
      const at = named === 'id' ? 'columns 1 and 4' : 'columns 2 and 3';
      const e = await inputError(text, { format: 'csv', mapping: mapping as Mapping });
      expect(e.message).toBe(
        `in:1: ${role} names column '${named}', which the header has more than once (${at}): which one to load is unclear; columns: id, v, v, id`,
      );
    }
  });

  it('loads a file with a repeated header name the mapping does not read', async () => {
    const r = await csv('id,v,note,note\n1,a,x,y\n', { key: 'k:{id}', type: 'string', value: 'v' });
    expect(r.commands).toEqual([['SET', 'k:1', 'a']]);
    const h = await csv('id,v,note,note\n1,a,x,y\n', { key: 'k:{id}', type: 'hash', fields: ['v'] });
    expect(h.commands).toEqual([['HSET', 'k:1', 'v', 'a']]);
  });

  it('set, list and zset group consecutive rows of the same key into one variadic command', async () => {
    const text = 'team,user,score\na,u1,1\na,u2,2.5\nb,u3,-inf\na,u4,1e3\n';
    expect((await csv(text, { key: 't:{team}', type: 'set', member: 'user' })).commands).toEqual([
      ['SADD', 't:a', 'u1', 'u2'],
      ['SADD', 't:b', 'u3'],
      ['SADD', 't:a', 'u4'],
    ]);
    expect((await csv(text, { key: 't:{team}', type: 'list', member: 'user' })).commands[0]).toEqual(['RPUSH', 't:a', 'u1', 'u2']);
    const z = await csv(text, { key: 't:{team}', type: 'zset', member: 'user', score: 'score' });
    expect(z.commands).toEqual([
      ['ZADD', 't:a', '1', 'u1', '2.5', 'u2'],
      ['ZADD', 't:b', '-inf', 'u3'],
      ['ZADD', 't:a', '1e3', 'u4'],
    ]);
    expect(z.lines).toEqual([2, 4, 5]);
  });

  it(`caps a group at ${GROUP_CAP} elements and continues the same key in a new command, EXPIRE once at the end`, async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => `k,m${i}`).join('\n');
    const r = await csv(`key,member\n${rows}\nother,x\n`, { key: '{key}', type: 'set', member: 'member', ttl: 9 });
    expect(r.commands.map((c) => [c[0], c[1], c.length - 2])).toEqual([
      ['SADD', 'k', 1000],
      ['SADD', 'k', 1000],
      ['SADD', 'k', 500],
      ['EXPIRE', 'k', 1],
      ['SADD', 'other', 1],
      ['EXPIRE', 'other', 1],
    ]);
    // Each command's line is its first row's; EXPIRE takes the key's first row.
    expect(r.lines).toEqual([2, 1002, 2002, 2, 2502, 2502]);
    expect(r.commands.slice(0, 3).flatMap((c) => c.slice(2))).toEqual(Array.from({ length: 2500 }, (_, i) => `m${i}`));
  });

  it('caps hash fields too, counting field-value pairs', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => `h,f${i},v${i}`).join('\n');
    const r = await csv(`key,f,v\n${rows}\n`, { key: '{key}', type: 'hash', fields: ['f', 'v'] });
    // 1,500 rows × 2 fields = 3,000 pairs.
    expect(r.commands.map((c) => (c.length - 2) / 2)).toEqual([1000, 1000, 1000]);
  });

  it('reports a zset score that is not a number at its line and column', async () => {
    const e = await inputError('team,user,score\na,u1,1\na,u2,abc\n', {
      format: 'csv',
      mapping: { key: '{team}', type: 'zset', member: 'user', score: 'score' },
    });
    expect(e.message).toBe('in:3:6: score "abc" in column \'score\' is not a number');
    for (const bad of ['nan', '', '1x', '0x10', ' 1', '1e', '.']) {
      const err = await inputError(`t,u,s\na,u,${bad}\n`, { format: 'csv', mapping: { key: '{t}', type: 'zset', member: 'u', score: 's' } });
      expect(err.message).toMatch(/is not a number$/);
    }
  });

  it('reports each key once to the tracker, however many commands it takes', async () => {
    const tracker = new RecordingTracker();
    const rows = Array.from({ length: 1200 }, (_, i) => `k,m${i}`).join('\n');
    await run(`key,member\n${rows}\nj,x\n`, { format: 'csv', mapping: { key: '{key}', type: 'list', member: 'member' }, tracker });
    expect(tracker.keys).toEqual(['k', 'j']);
  });

  it('still sends the open key group when a later row is malformed', async () => {
    const { result, error } = await runCollecting('team,user,score\na,u1,1\na,u2,2\nb,u3,x\n', {
      format: 'csv',
      mapping: { key: '{team}', type: 'zset', member: 'user', score: 'score' },
    });
    expect((error as Error).message).toBe('in:4:6: score "x" in column \'score\' is not a number');
    expect(result.commands).toEqual([['ZADD', 'a', '1', 'u1', '2', 'u2']]);
  });

  it('closes a growing command once it passes batchBytes, so one key never makes a giant command', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `k,member-${String(i).padStart(4, '0')}`).join('\n');
    const r = await run(`key,member\n${rows}\n`, { format: 'csv', mapping: { key: '{key}', type: 'set', member: 'member', ttl: 3 }, batchBytes: 500 });
    const sadds = r.commands.filter((c) => c[0] === 'SADD');
    expect(sadds.length).toBeGreaterThan(5);
    for (const c of sadds) expect(c[1]).toBe('k');
    expect(sadds.flatMap((c) => c.slice(2))).toEqual(Array.from({ length: 200 }, (_, i) => `member-${String(i).padStart(4, '0')}`));
    expect(r.commands.filter((c) => c[0] === 'EXPIRE')).toEqual([['EXPIRE', 'k', '3']]);
    expect(r.commands.at(-1)?.[0]).toBe('EXPIRE');
    for (const b of r.batches) expect(b.resp.length).toBeLessThan(500 + 100);
  });
});
