import { describe, expect, it } from 'vitest';
import { ReplyProtocolError } from '../../resp/replyProtocolError';
import type { RespSink } from './respSink';
import { RespStreamParser } from './respStreamParser';

/** Events as text; a string's pieces joined, so any chunking logs alike. */
class Log implements RespSink {
  events: string[] = [];
  private str = '';
  line(t: string, buf: Buffer, start: number, end: number): void {
    this.events.push(`${t} ${buf.toString('latin1', start, end)}`);
  }
  stringStart(t: string, bytes: number, format: string): void {
    this.events.push(`${t}(${bytes}${format === '' ? '' : ` ${format}`})`);
    this.str = '';
  }
  stringPiece(buf: Buffer, start: number, end: number): void {
    this.str += buf.toString('latin1', start, end);
  }
  stringEnd(): void {
    this.events.push(`= ${JSON.stringify(this.str)}`);
  }
  open(t: string, count: number): void {
    this.events.push(`${t}[${count}`);
  }
  close(): void {
    this.events.push(']');
  }
}

/** Every type once: RESP2 and RESP3, nulls, empties, an attribute inside an array, binary. */
const wire = Buffer.from(
  [
    '+OK',
    '-ERR no',
    ':-42',
    '$5\r\na\r\nb\xff',
    '$0\r\n',
    '$-1',
    '*-1',
    '*0',
    '_',
    ',3.14',
    ',inf',
    '(12345678901234567890',
    '#t',
    '#f',
    '!9\r\nSYNTAX no',
    '=8\r\ntxt:a\nb\r',
    '%2\r\n+k\r\n*2\r\n:1\r\n:2\r\n$1\r\nz\r\n~1\r\n#f',
    '*3\r\n:1\r\n|1\r\n+ttl\r\n:5\r\n:2\r\n*1\r\n*0',
    '>2\r\n+invalidate\r\n*1\r\n$1\r\nk',
    '|1\r\n+a\r\n+b\r\n+annotated',
  ].join('\r\n') + '\r\n',
  'latin1',
);
const TOP_LEVEL_VALUES = 20; // the last attribute is part of the value it annotates

function parse(chunks: Buffer[]): { events: string[]; values: number } {
  const log = new Log();
  const parser = new RespStreamParser(log);
  let values = 0;
  for (const chunk of chunks) {
    for (let at = 0; at < chunk.length;) {
      at = parser.feed(chunk, at);
      if (parser.complete) {
        values++;
        parser.complete = false;
        log.events.push('|end');
      }
    }
  }
  return { events: log.events, values };
}

describe('RespStreamParser', () => {
  const whole = parse([wire]);

  it('reports every RESP2 and RESP3 type as events, stopping after each top-level value', () => {
    expect(whole.values).toBe(TOP_LEVEL_VALUES);
    expect(whole.events.slice(0, 12)).toEqual([
      'simple OK',
      '|end',
      'error ERR no',
      '|end',
      'integer -42',
      '|end',
      'bulk(5)',
      `= ${JSON.stringify('a\r\nb\xff')}`,
      '|end',
      'bulk(0)',
      '= ""',
      '|end',
    ]);
    expect(whole.events.join(' ')).toContain('null  |end null  |end array[0 ] |end null  |end double 3.14 |end double inf');
    expect(whole.events.join(' ')).toContain('bignum 12345678901234567890 |end boolean t |end boolean f |end error(9) = "SYNTAX no"');
    expect(whole.events.join(' ')).toContain(`verbatim(4 txt) = ${JSON.stringify('a\nb\r')}`);
    // A map of 2 entries whose key and value are aggregates; the set closes the map.
    expect(whole.events.join(' ')).toContain('map[2 simple k array[2 integer 1 integer 2 ] bulk(1) = "z" set[1 boolean f ] ] |end');
    // An attribute inside an array is not one of its 3 items.
    expect(whole.events.join(' ')).toContain('array[3 integer 1 attribute[1 simple ttl integer 5 ] integer 2 array[1 array[0 ] ] ] |end');
    expect(whole.events.join(' ')).toContain('push[2 simple invalidate array[1 bulk(1) = "k" ] ] |end');
    // A top-level attribute is not a value: the one it annotates ends the reply.
    expect(whole.events.slice(-7)).toEqual(['|end', 'attribute[1', 'simple a', 'simple b', ']', 'simple annotated', '|end']);
  });

  it('gives the same events whichever byte a chunk ends on, and byte by byte', () => {
    for (let cut = 1; cut < wire.length; cut++) {
      expect(parse([wire.subarray(0, cut), wire.subarray(cut)])).toEqual(whole);
    }
    expect(parse([...wire].map((b) => Buffer.from([b])))).toEqual(whole);
  });

  it('streams a long string in pieces without keeping it', () => {
    const body = Buffer.alloc(3 * 1024 * 1024, 0x61);
    const chunks = [Buffer.from(`$${body.length}\r\n`), body.subarray(0, 1000), body.subarray(1000), Buffer.from('\r\n')];
    const pieces: number[] = [];
    const sink: RespSink = {
      ...new Log(),
      line() {},
      open() {},
      close() {},
      stringStart() {},
      stringEnd() {},
      stringPiece: (_b, s, e) => void pieces.push(e - s),
    };
    const parser = new RespStreamParser(sink);
    for (const c of chunks) parser.feed(c);
    expect(parser.complete).toBe(true);
    expect(pieces).toEqual([1000, body.length - 1000]);
  });

  it('refuses what is not RESP, naming it', () => {
    const bad =
      (text: string): (() => void) =>
      () =>
        new RespStreamParser(new Log()).feed(Buffer.from(text, 'latin1'));
    expect(bad('?what\r\n')).toThrow(new ReplyProtocolError('unexpected byte 0x3f where a RESP reply type (+ - : $ * _ , # ! = ( % ~ | >) was expected'));
    expect(bad('#x\r\n')).toThrow(/boolean must be #t or #f, not #x/);
    expect(bad('$?\r\n')).toThrow(/streamed RESP3 values/);
    expect(bad('*1x\r\n')).toThrow(/unexpected byte 0x78 in a RESP length/);
    expect(bad('=3\r\ntxt\r\n')).toThrow(/no room for its "txt:" format/);
    expect(bad('$1\r\nab\r\n')).toThrow(/followed by 0x62, not CRLF/);
    const parser = new RespStreamParser(new Log());
    parser.feed(Buffer.from('+'));
    expect(() => parser.feed(Buffer.alloc(2 * 1024 * 1024, 0x61))).toThrow(/a RESP line of more than 1048576 bytes/);
  });
});
