import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../../testing/redis';
import { holdsRedacted, quoteArg, redactArgs } from './redact';

const R = '(redacted)';
const words = (line: string): string[] => line.split(' ');
const redact = (line: string): string => redactArgs(words(line)).line;

describe('redactArgs', () => {
  it('AUTH: every argument, in any case', () => {
    expect(redactArgs(['AUTH', 's3cret'])).toEqual({ line: `AUTH ${R}`, redacted: true });
    expect(redact('auth alice s3cret')).toBe(`auth ${R} ${R}`);
    expect(redact('Auth alice s3cret extra')).toBe(`Auth ${R} ${R} ${R}`);
    expect(redactArgs(['AUTH'])).toEqual({ line: 'AUTH', redacted: false });
  });

  it('HELLO: the AUTH clause, not the protocol or SETNAME', () => {
    expect(redact('HELLO 3 AUTH alice s3cret SETNAME console')).toBe(`HELLO 3 AUTH ${R} ${R} SETNAME console`);
    expect(redact('hello 3 setname app auth alice s3cret')).toBe(`hello 3 setname app auth ${R} ${R}`);
    expect(redact('HELLO 3 SETNAME auth')).toBe('HELLO 3 SETNAME auth');
    expect(redactArgs(words('HELLO 3 SETNAME auth')).redacted).toBe(false);
    expect(redact('HELLO 2')).toBe('HELLO 2');
    // The protocol version left out: the password still goes.
    expect(redact('HELLO AUTH alice s3cret')).toBe(`HELLO AUTH ${R} ${R}`);
    // A clause cut short hides what there is.
    expect(redact('HELLO 3 AUTH alice')).toBe(`HELLO 3 AUTH ${R}`);
  });

  it('ACL SETUSER: password rules keep their sign, other rules stay', () => {
    expect(redact('ACL SETUSER alice on >s3cret ~cache:* +@read')).toBe(`ACL SETUSER alice on >${R} ~cache:* +@read`);
    expect(redact('acl setuser bob <old #5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8 !abc nopass resetpass')).toBe(
      `acl setuser bob <${R} #${R} !${R} nopass resetpass`,
    );
    expect(redact('ACL SETUSER alice on >a >b')).toBe(`ACL SETUSER alice on >${R} >${R}`);
    // The user name is not a rule, even one that starts like a password rule.
    expect(redact('ACL SETUSER >weird on')).toBe('ACL SETUSER >weird on');
    expect(redact('ACL GETUSER >x')).toBe('ACL GETUSER >x');
    expect(redactArgs(words('ACL SETUSER alice on +@all ~*')).redacted).toBe(false);
  });

  it('CONFIG SET: secret parameters in any case, every pair', () => {
    expect(redact('CONFIG SET requirepass s3cret')).toBe(`CONFIG SET requirepass ${R}`);
    expect(redact('config set MasterAuth s3cret maxmemory 1gb MASTERUSER repl')).toBe(`config set MasterAuth ${R} maxmemory 1gb MASTERUSER ${R}`);
    expect(redact('CONFIG SET tls-key-file-pass a tls-client-key-file-pass b')).toBe(`CONFIG SET tls-key-file-pass ${R} tls-client-key-file-pass ${R}`);
    expect(redact('CONFIG SET primaryauth s3cret')).toBe(`CONFIG SET primaryauth ${R}`);
    // A value that is a secret parameter's name is a value.
    expect(redact('CONFIG SET dir requirepass')).toBe('CONFIG SET dir requirepass');
    expect(redact('CONFIG GET requirepass')).toBe('CONFIG GET requirepass');
    expect(redact('CONFIG SET requirepass')).toBe('CONFIG SET requirepass');
  });

  it('MIGRATE: AUTH and AUTH2, never a key named auth', () => {
    expect(redact('MIGRATE 10.0.0.2 6379 k 0 5000 AUTH s3cret')).toBe(`MIGRATE 10.0.0.2 6379 k 0 5000 AUTH ${R}`);
    expect(redactArgs(words('migrate h 6379 _ 0 5000 copy replace auth2 alice s3cret keys a b').map((w) => (w === '_' ? '' : w)))).toEqual({
      line: `migrate h 6379 "" 0 5000 copy replace auth2 ${R} ${R} keys a b`,
      redacted: true,
    });
    expect(redactArgs(['MIGRATE', 'h', '6379', '', '0', '5000', 'KEYS', 'auth', 'AUTH2', 'x'])).toEqual({
      line: 'MIGRATE h 6379 "" 0 5000 KEYS auth AUTH2 x',
      redacted: false,
    });
    expect(redact('MIGRATE h 6379 auth 0 5000')).toBe('MIGRATE h 6379 auth 0 5000');
  });

  it('SENTINEL SET and SENTINEL CONFIG SET credentials', () => {
    expect(redact('SENTINEL SET mymaster auth-pass s3cret quorum 2')).toBe(`SENTINEL SET mymaster auth-pass ${R} quorum 2`);
    expect(redact('sentinel config set sentinel-pass s3cret')).toBe(`sentinel config set sentinel-pass ${R}`);
  });

  it('leaves alone words that only look like secrets elsewhere', () => {
    for (const line of [
      'SET auth x',
      'SET requirepass s3cret',
      'HSET user:1 password s3cret',
      'GET AUTH',
      'ECHO >s3cret',
      'CLIENT SETNAME auth',
      'SET k AUTH',
      'LPUSH list AUTH2 a b',
      'CONFIG REWRITE',
    ]) {
      expect(redactArgs(words(line)), line).toEqual({ line, redacted: false });
    }
    expect(redactArgs([])).toEqual({ line: '', redacted: false });
  });

  it('re-quotes arguments as redis-cli reads them', () => {
    expect(redactArgs(['SET', 'a key', 'say "hi"', '', "it's", 'back\\slash', 'tab\there', 'nl\n', 'café', '\u0000\u00ff'])).toEqual({
      line: `SET "a key" "say \\"hi\\"" "" "it's" "back\\\\slash" "tab\\there" "nl\\n" café "\\x00ÿ"`,
      redacted: false,
    });
    expect(quoteArg('plain:key-1')).toBe('plain:key-1');
    expect(quoteArg('\u202egpj.exe')).toBe('"\\xe2\\x80\\xaegpj.exe"');
    expect(quoteArg('\u007f')).toBe('"\\x7f"');
    expect(redact('AUTH a\u00a0b')).toBe(`AUTH ${R}`);
  });
});

describe('holdsRedacted', () => {
  it('tells a recalled line with the mark where a secret goes', () => {
    expect(holdsRedacted(['CONFIG', 'SET', 'requirepass', R])).toBe(true);
    expect(holdsRedacted(['ACL', 'SETUSER', 'u', `>${R}`])).toBe(true);
    expect(holdsRedacted(['AUTH', R])).toBe(true);
    expect(holdsRedacted(['SET', 'k', R])).toBe(false);
    expect(holdsRedacted(['CONFIG', 'SET', 'requirepass', 'new'])).toBe(false);
  });
});

describe('quoteArg, read back by a real server', () => {
  const redis = useRedis();

  /** ECHO <quoted> sent inline: the server splits it with sdssplitargs, as redis-cli does. */
  async function echoInline(quoted: string): Promise<Buffer> {
    const socket = connect(redis().port, redis().host);
    try {
      socket.write(`ECHO ${quoted}\r\n`);
      let data = Buffer.alloc(0);
      for await (const chunk of socket) {
        data = Buffer.concat([data, chunk as Buffer]);
        const head = data.indexOf('\r\n');
        if (head < 0) continue;
        if (data[0] !== 0x24) throw new Error(`not a bulk reply: ${data.toString()}`);
        const len = Number(data.subarray(1, head).toString());
        if (data.length >= head + 2 + len + 2) return data.subarray(head + 2, head + 2 + len);
      }
      throw new Error('the server closed the connection');
    } finally {
      socket.destroy();
    }
  }

  it('gives back the same bytes for every kind of argument', async () => {
    const args = [
      'plain',
      '',
      ' ',
      'a b',
      '"',
      "'",
      `'"`,
      '\\',
      '\\x41',
      '\r\n\t\u0007\b',
      '\u0000',
      'é中😀',
      '\u202e\u200b\ufeff',
      '\u0080\u009f',
      'x"y\'z\\',
    ];
    for (const arg of args) {
      expect(await echoInline(quoteArg(arg)), JSON.stringify(arg)).toEqual(Buffer.from(arg, 'utf8'));
    }
  });
});
