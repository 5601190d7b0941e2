import { describe, expect, it } from 'vitest';
import type { Mapping } from '../types';
import { inputError, RecordingTracker, run } from './sourceTestKit';

const nd = (text: string, mapping: Mapping, chunk?: number) => run(text, { format: 'ndjson', mapping }, chunk);

describe('ndjson source', () => {
  it('maps one object per line, skipping blank lines, with the line of each', async () => {
    const r = await nd('{"id":1,"name":"Ann"}\n\n  \r\n{"id":"2","name":"Bob"}\r\n', { key: 'user:{id}', type: 'string', value: 'name' });
    expect(r.commands).toEqual([
      ['SET', 'user:1', 'Ann'],
      ['SET', 'user:2', 'Bob'],
    ]);
    expect(r.lines).toEqual([1, 4]);
    expect(r.columns).toEqual(['id', 'name']);
  });

  it('stringifies numbers and booleans, and writes objects and arrays as JSON', async () => {
    const r = await nd('{"id":1,"n":2.5,"b":true,"o":{"x":[1,"é"]},"a":[]}\n', { key: '{id}', type: 'hash' });
    expect(r.commands).toEqual([['HSET', '1', 'n', '2.5', 'b', 'true', 'o', '{"x":[1,"é"]}', 'a', '[]']]);
  });

  it('hash without fields takes each object’s own other fields, skipping nulls', async () => {
    const r = await nd('{"id":1,"a":"x","z":null}\n{"id":2,"b":"y"}\n', { key: 'h:{id}', type: 'hash' });
    expect(r.commands).toEqual([
      ['HSET', 'h:1', 'a', 'x'],
      ['HSET', 'h:2', 'b', 'y'],
    ]);
  });

  it('reports a field the mapping needs that an object lacks or has as null', async () => {
    const m: Mapping = { key: 'user:{id}', type: 'string', value: 'name' };
    expect((await inputError('{"id":1,"name":"a"}\n{"id":2}\n', { format: 'ndjson', mapping: m })).message).toBe("in:2: field 'name' is missing");
    expect((await inputError('{"id":null,"name":"a"}\n', { format: 'ndjson', mapping: m })).message).toBe("in:1: field 'id' is null");
    // An inherited property is not a field.
    expect((await inputError('{"name":"a"}\n', { format: 'ndjson', mapping: { ...m, key: '{constructor}' } })).message).toBe(
      "in:1: field 'constructor' is missing",
    );
  });

  it('reports invalid JSON at its line and column', async () => {
    const m: Mapping = { key: '{id}', type: 'string', value: 'v' };
    const e1 = await inputError('{"id":1,"v":"a"}\n{"id":2,"v":}\n', { format: 'ndjson', mapping: m });
    expect(e1.message).toBe("in:2:13: unexpected '}'");
    const e2 = await inputError('{"id":1,"v":"a",}\n', { format: 'ndjson', mapping: m });
    expect(e2.position).toEqual({ file: 'in', line: 1, column: 17 });
    const e3 = await inputError('{"id":1,"v":"ä"\n', { format: 'ndjson', mapping: m });
    expect(e3.message).toMatch(/^in:1:16: /);
  });

  it('wants an object on each line', async () => {
    const e = await inputError('  [1,2]\n', { format: 'ndjson', mapping: { key: '{id}', type: 'string', value: 'v' } });
    expect(e.message).toBe('in:1:3: expected a JSON object, got an array');
  });

  it('reads the same however the file is split into chunks, UTF-8 included', async () => {
    const text = '{"id":"ключ","v":"🙂 日本"}\n{"id":"b","v":"x"}';
    const m: Mapping = { key: '{id}', type: 'string', value: 'v' };
    const whole = await nd(text, m);
    expect(whole.commands[0]).toEqual(['SET', 'ключ', '🙂 日本']);
    for (const size of [1, 2, 3, 5]) expect((await nd(text, m, size)).commands).toEqual(whole.commands);
  });

  it('groups zset rows and reports a bad score naming the field', async () => {
    const m: Mapping = { key: 'lb', type: 'zset', member: 'u', score: 's' };
    expect((await nd('{"u":"a","s":1}\n{"u":"b","s":"2"}\n', m)).commands).toEqual([['ZADD', 'lb', '1', 'a', '2', 'b']]);
    const e = await inputError('{"u":"a","s":1}\n{"u":"b","s":"high"}\n', { format: 'ndjson', mapping: m });
    expect(e.message).toBe('in:2: score "high" in column \'s\' is not a number');
  });

  it('reports its keys to the tracker', async () => {
    const tracker = new RecordingTracker();
    await run('{"id":1,"v":"a"}\n{"id":2,"v":"b"}\n', { format: 'ndjson', mapping: { key: 'k{id}', type: 'string', value: 'v' }, tracker });
    expect(tracker.keys).toEqual(['k1', 'k2']);
  });
});

describe('ndjson: the byte-level reader agrees with JSON.parse', () => {
  // Lines the fast path takes and lines it must leave to JSON.parse; every one must load as JSON.parse reads it.
  const lines = [
    '{"id":"a","v":"plain"}',
    '{ "id" : "b" , "v" : 42 }',
    '{"id":"c","v":-7}',
    '{"id":"d","v":0}',
    '{"id":"e","v":-0}',
    '{"id":"f","v":1.50}',
    '{"id":"g","v":1e3}',
    '{"id":"h","v":12345678901234567}',
    '{"id":"i","v":true}',
    '{"id":"j","v":false}',
    '{"id":"k","v":"esc \\" \\\\ \\n \\u00e9"}',
    '{"id":"l","v":"ünï 🙂"}',
    '{"id":"m","v":{"nested":[1,2]}}',
    '{"id":"n","v":"first","v":"last"}',
    '{"v":"order","id":"o","extra":null}',
    '{"id":"p","v":[]}\t',
    '{"id":"q","v":"x"}   ',
  ];

  it('for values of every kind', async () => {
    const text = ['{"id":"first","v":"x"}', ...lines].join('\n');
    const r = await nd(text, { key: '{id}', type: 'string', value: 'v' });
    const expected = [['first', 'x'], ...lines.map((l) => JSON.parse(l) as Record<string, unknown>).map((o) => [o.id, o.v])].map(([id, v]) => [
      'SET',
      String(id),
      typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v),
    ]);
    expect(r.commands).toEqual(expected);
  });

  it('and still reports what JSON.parse refuses', async () => {
    const m: Mapping = { key: '{id}', type: 'string', value: 'v' };
    const first = '{"id":"ok","v":"x"}\n';
    for (const bad of ['{"id":"a","v":"tab\there"}', '{"id":"a","v":01}', '{"id":"a","v":"x"', '{"id":"a" "v":"x"}', '{"id":"a","v":"x"}}']) {
      const e = await inputError(first + bad, { format: 'ndjson', mapping: m });
      expect(e.position.line, bad).toBe(2);
    }
  });

  it('and loads malformed UTF-8 the way JSON.parse sees it (U+FFFD)', async () => {
    const text = Buffer.concat([Buffer.from('{"id":"ok","v":"x"}\n{"id":"a","v":"'), Buffer.from([0xff]), Buffer.from('"}\n')]);
    const r = await run(text, { format: 'ndjson', mapping: { key: '{id}', type: 'string', value: 'v' } });
    expect(r.commands[1]).toEqual(['SET', 'a', '\ufffd']);
  });
});
