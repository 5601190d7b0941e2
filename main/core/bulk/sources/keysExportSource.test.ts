import { describe, expect, it } from 'vitest';
import { inputError, run } from './sourceTestKit';

const header = 'key,key_encoding,type,ttl_ms,part,value_encoding,value\r\n';

describe('keys-ndjson: an export read back', () => {
  it('writes each type with its commands: the first part replaces, later parts add, TTLs last', async () => {
    const input = [
      '{"key":"s","type":"string","ttl_ms":5000,"value":"v"}',
      '{"key":"s","type":"string","ttl_ms":5000,"part":1,"value":"w"}',
      '{"key_b64":"/wA=","type":"hash","ttl_ms":null,"value_b64":{"Zg==":"gA=="}}',
      '',
      '{"key":"z","type":"zset","ttl_ms":null,"value":[["a",1.5],["b","-inf"]]}',
      '{"key":"x","type":"stream","ttl_ms":null,"value":[["1-0",{"f":"v"}]]}',
    ].join('\n');
    const { commands, raw, lines } = await run(input, { format: 'keys-ndjson' }, 7);
    expect(commands).toEqual([
      ['SET', 's', 'v'],
      ['PEXPIRE', 's', '5000'],
      ['APPEND', 's', 'w'],
      ['PEXPIRE', 's', '5000'],
      ['DEL', commands[4]?.[1]],
      ['HSET', commands[4]?.[1], 'f', commands[5]?.[3]],
      ['DEL', 'z'],
      ['ZADD', 'z', '1.5', 'a', '-inf', 'b'],
      ['DEL', 'x'],
      ['XADD', 'x', '1-0', 'f', 'v'],
    ]);
    expect(raw[5]?.[1]).toEqual(Buffer.from([0xff, 0x00]));
    expect(raw[5]?.[3]).toEqual(Buffer.from([0x80]));
    expect(lines).toEqual([1, 1, 2, 2, 3, 3, 5, 5, 6, 6]);
  });

  it('a malformed line stops the load naming its line and field', async () => {
    const ok = '{"key":"a","type":"string","ttl_ms":null,"value":"1"}\n';
    expect((await inputError(`${ok}{"key":"b","type":"string","ttl_ms":-4,"value":"1"}\n`, { format: 'keys-ndjson' })).message).toMatch(
      /^in:2: ttl_ms: must be/,
    );
    expect((await inputError(`${ok}${ok}{"key":"b","type":"sett","ttl_ms":null,"value":[]}\n`, { format: 'keys-ndjson' })).message).toMatch(
      /^in:3: type: must be one of/,
    );
    expect((await inputError(`{"key":"b","type":"list","ttl_ms":null,"value":[1]}\n`, { format: 'keys-ndjson' })).message).toMatch(
      /^in:1: value: item 0 must be a string/,
    );
    expect((await inputError(`{"key_b64":"%%","type":"string","ttl_ms":null,"value":"1"}\n`, { format: 'keys-ndjson' })).message).toMatch(
      /^in:1: key_b64: .* is not base64/,
    );
    expect((await inputError(`${ok}{"key":"b","type":"string","value":"1"\n`, { format: 'keys-ndjson' })).message).toMatch(/^in:2: line: not JSON/);
    expect((await inputError(`{"key":"b","typo":"string","ttl_ms":null,"value":"1"}\n`, { format: 'keys-ndjson' })).message).toMatch(
      /^in:1: typo: is not a field/,
    );
  });
});

describe('keys-csv: an export read back', () => {
  it('reads quoted values holding commas, quotes and newlines, and JSON values of other types', async () => {
    const input = `${header}s,text,string,5000,0,text,"a,""b""\r\nc"\r\nl,text,list,,0,text,"[""x"",""y""]"\r\n`;
    const { commands, lines } = await run(input, { format: 'keys-csv' }, 5);
    expect(commands).toEqual([
      ['SET', 's', 'a,"b"\r\nc'],
      ['PEXPIRE', 's', '5000'],
      ['DEL', 'l'],
      ['RPUSH', 'l', 'x', 'y'],
    ]);
    expect(lines).toEqual([2, 2, 4, 4]);
  });

  it('a malformed row stops the load naming its line and field', async () => {
    expect((await inputError(`${header}s,text,string,soon,0,text,v\r\n`, { format: 'keys-csv' })).message).toMatch(/^in:2: ttl_ms: must be a whole number/);
    expect((await inputError(`${header}s,utf8,string,,0,text,v\r\n`, { format: 'keys-csv' })).message).toMatch(/^in:2: key_encoding: must be text or base64/);
    expect((await inputError(`${header}s,text,hash,,0,text,{nope}\r\n`, { format: 'keys-csv' })).message).toMatch(/^in:2: value: a hash value must be JSON/);
    expect((await inputError('key,type,value\r\ns,string,v\r\n', { format: 'keys-csv' })).message).toMatch(/^in:1: key_encoding: the header must name/);
  });

  it('a character after a closing quote stops the load at its line and column, not silently dropped or read as a new row', async () => {
    expect((await inputError(`${header}s,text,string,,0,text,"v"x\r\n`, { format: 'keys-csv' })).message).toMatch(
      /^in:2: line: column 26: a closing quote must be followed/,
    );
    // Inside a quoted newline, the line is the physical one the stray character is on.
    expect((await inputError(`${header}s,text,string,,0,text,"a\nb"x,,\r\n`, { format: 'keys-csv' })).message).toMatch(
      /^in:3: line: column 3: a closing quote/,
    );
    expect((await inputError(`${header}"s"t,text,string,,0,text,v\r\n`, { format: 'keys-csv' })).message).toMatch(/^in:2: line: column 4: /);
  });
});
