import { describe, expect, it } from 'vitest';
import { redisCliPrintsRaw, replyText, unescapeForRaw } from './replyText';
import type { ReplyNode } from './schemas/console';

const bulk = (v: string): ReplyNode => ({ t: 'bulk', v, bytes: v.length });
const int = (v: number): ReplyNode => ({ t: 'integer', v: String(v) });
const arr = (...items: ReplyNode[]): ReplyNode => ({ t: 'array', items, total: items.length });
const map = (...entries: [ReplyNode, ReplyNode][]): ReplyNode => ({ t: 'map', entries, total: entries.length });

describe('replyText formatted (as redis-cli 7.0 --no-raw prints)', () => {
  it('prints scalars with their type', () => {
    const lines = [
      [{ t: 'simple', v: 'OK' }, 'OK'],
      [{ t: 'error', v: 'ERR wrong' }, '(error) ERR wrong'],
      [int(-3), '(integer) -3'],
      [{ t: 'double', v: '3.141' }, '(double) 3.141'],
      [{ t: 'bignum', v: '12345678901234567890' }, '(big number) 12345678901234567890'],
      [{ t: 'boolean', v: true }, '(true)'],
      [{ t: 'null' }, '(nil)'],
      [bulk('a \\"b\\" \\xff\\n'), '"a \\"b\\" \\xff\\n"'],
      [{ t: 'verbatim', format: 'txt', v: 'This is a verbatim\\nstring', bytes: 25 }, 'This is a verbatim\nstring'],
    ] as [ReplyNode, string][];
    for (const [node, text] of lines) expect(replyText(node, 'formatted')).toBe(`${text}\n`);
  });

  it('numbers nested items, indented by the width of the largest index', () => {
    const items = Array.from({ length: 10 }, (_, i) => int(i));
    items[1] = arr(bulk('a'), arr(bulk('b')));
    expect(replyText(arr(...items), 'formatted')).toBe(
      [' 1) (integer) 0', ' 2) 1) "a"', '    2) 1) "b"', ...[2, 3, 4, 5, 6, 7, 8].map((i) => ` ${i + 1}) (integer) ${i}`), '10) (integer) 9', ''].join('\n'),
    );
  });

  it('puts a map value that spans lines below its key, and a one-line one after it', () => {
    // As redis-cli -3 prints EVAL "redis.setresp(3); return {map={k={map={x={1,2}}}, z={3}}}" 0
    const reply = map([bulk('k'), map([bulk('x'), arr(int(1), int(2))])], [bulk('z'), arr(int(3))]);
    expect(replyText(reply, 'formatted')).toBe(
      ['1# "k" => ', '   1# "x" => ', '      1) (integer) 1', '      2) (integer) 2', '2# "z" => 1) (integer) 3', ''].join('\n'),
    );
    // A one-element array holding a multi-line map is multi-line too (COMMAND DOCS' arguments).
    const docs = map([bulk('arguments'), arr(map([bulk('name'), bulk('key')], [bulk('type'), bulk('key')]))]);
    expect(replyText(docs, 'formatted')).toBe(['1# "arguments" => ', '   1) 1# "name" => "key"', '      2# "type" => "key"', ''].join('\n'));
    // Empty aggregates, and a set.
    const empties = map([bulk('modules'), arr()], [bulk('s'), { t: 'set', items: [int(1)], total: 1 }], [bulk('h'), map()]);
    expect(replyText(empties, 'formatted')).toBe(['1# "modules" => (empty array)', '2# "s" => 1~ (integer) 1', '3# "h" => (empty hash)', ''].join('\n'));
  });

  it('says where a tree was cut, numbering by the real count', () => {
    const cut: ReplyNode = { t: 'array', items: [{ t: 'bulk', v: 'abc', bytes: 70000, cut: true }], total: 2000000 };
    expect(replyText(cut, 'formatted')).toBe(['      1) "abc"… (70000 bytes)', '(… 1999999 more)', ''].join('\n'));
    expect(replyText({ t: 'map', entries: [], total: 5 }, 'formatted')).toBe('(… 5 more)\n');
  });
});

describe('replyText raw (as redis-cli --raw prints)', () => {
  it('prints values bare, one a line, map entries as key and value', () => {
    // redis-cli --raw EVAL "return {1,{2,3},{err='x'},false}" 0 prints "1\n2\n3\nx\n\n\n".
    const reply = arr(int(1), arr(int(2), int(3)), { t: 'error', v: 'x' }, { t: 'null' });
    expect(replyText(reply, 'raw')).toBe('1\n2\n3\nx\n\n\n');
    expect(replyText(map([bulk('a'), bulk('1')], [bulk('b'), { t: 'boolean', v: false }]), 'raw')).toBe('a 1\nb (false)\n');
    expect(replyText(arr(), 'raw')).toBe('\n');
  });

  it('turns line breaks, tabs, quotes and backslashes back into characters, and keeps bytes that are no text escaped', () => {
    expect(replyText(bulk('say \\"hi\\"\\n\\tC:\\\\dir \\xff \\u202e \\\\xff'), 'raw')).toBe('say "hi"\n\tC:\\dir \\xff \\u202e \\xff\n');
    expect(unescapeForRaw('plain')).toBe('plain');
  });
});

describe('redisCliPrintsRaw', () => {
  it('names the commands redis-cli prints raw in a terminal', () => {
    expect(redisCliPrintsRaw(['INFO', 'memory'])).toBe(true);
    expect(redisCliPrintsRaw(['client', 'LIST'])).toBe(true);
    expect(redisCliPrintsRaw(['CLUSTER', 'NODES', 'x'])).toBe(false);
    expect(redisCliPrintsRaw(['GET', 'info'])).toBe(false);
  });
});
