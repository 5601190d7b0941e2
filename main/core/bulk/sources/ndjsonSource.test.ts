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
    '{"id":"n","v":"only","x":1,"x":2}',
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
});

describe('ndjson: nothing is changed silently', () => {
  const m: Mapping = { key: '{id}', type: 'string', value: 'v' };
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

  it('refuses a line that is not UTF-8 at the bad byte, in a value or a key, on either reader', async () => {
    // Line 2 would take the byte-level reader, line 1 (the first object) and the escaped one JSON.parse.
    for (const [text, line, column] of [
      [bytes('{"id":"ok","v":"x"}\n{"id":"a","v":"é', [0xff], 'z"}\n'), 2, 17],
      [bytes('{"id":"a","v":"', [0xc3, 0x28], '"}\n'), 1, 16],
      [bytes('{"id":"ok","v":"x"}\n{"id":"a","v":"\\n', [0xe9], '"}\n'), 2, 18],
      [bytes('{"id":"ok","v":"x"}\n{"id":"a","v":"x","', [0xff], '":1}\n'), 2, 20],
    ] as const) {
      const e = await inputError(text, { format: 'ndjson', mapping: m });
      expect(e.position).toEqual({ file: 'in', line, column });
      expect(e.message).toMatch(/is not valid UTF-8, and JSON text must be/);
    }
    // A hash taking all fields: the field names are data too.
    const e = await inputError(bytes('{"id":"a","n', [0xa0], '":"x"}\n'), { format: 'ndjson', mapping: { key: '{id}', type: 'hash' } });
    expect(e.message).toBe(
      "in:1:13: byte '\\xa0' is not valid UTF-8, and JSON text must be (RFC 8259); for binary values use --format resp or commands, or base64 them",
    );
  });

  it('refuses a lone surrogate escape, and loads a pair', async () => {
    const e = await inputError('{"id":"a","v":"ok \\ud83d!"}\n', { format: 'ndjson', mapping: m });
    expect(e.message).toBe('in:1:19: escape \\ud83d is half of a surrogate pair, and UTF-8 has no bytes for it alone');
    expect((await inputError('{"id":"a","v":"\\\\\\udc00"}\n', { format: 'ndjson', mapping: m })).position.column).toBe(18);
    const r = await nd('{"id":"a","v":"\\ud83d\\ude42 \\\\ud800"}\n', m);
    expect(r.commands).toEqual([['SET', 'a', '🙂 \\ud800']]);
  });

  it('refuses a key an object repeats where the load reads it, on either reader', async () => {
    const first = '{"id":"ok","v":"x"}\n';
    const e = await inputError(`${first}{"id":"a","v":"first","v":"last"}\n`, { format: 'ndjson', mapping: m });
    expect(e.message).toBe("in:2:23: key 'v' appears twice in the object (first at column 11); only the last would be loaded");
    // Escaped or not, the same key; a nested value is stored whole, so its keys count too.
    expect((await inputError('{"id":"a","\\u0076":1,"v":2}\n', { format: 'ndjson', mapping: m })).position.column).toBe(22);
    expect((await inputError('{"id":"a","v":[{"k":1},{"k":2,"k":3}]}\n', { format: 'ndjson', mapping: m })).message).toMatch(/^in:1:31: key 'k' appears twice/);
    // A hash taking every field reads them all.
    const h = await inputError('{"id":"a","n":1,"n":2}\n', { format: 'ndjson', mapping: { key: '{id}', type: 'hash' } });
    expect(h.message).toMatch(/^in:1:17: key 'n' appears twice/);
  });

  it('loads an object that repeats only keys the load does not read', async () => {
    const r = await nd('{"id":"ok","v":"x"}\n{"id":"a","v":"y","x":1,"x":{"z":1,"z":2}}\n', m);
    expect(r.commands).toEqual([
      ['SET', 'ok', 'x'],
      ['SET', 'a', 'y'],
    ]);
  });
});
