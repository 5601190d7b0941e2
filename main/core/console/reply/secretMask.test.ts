import { describe, expect, it } from 'vitest';
import { ReplyTextSink } from './replyTextSink';
import { ReplyTreeBuilder } from './replyTree';
import { RespStreamParser } from './respStreamParser';
import { SecretMask } from './secretMask';

const bulk = (s: string): string => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;

/** The reply's text through the mask, fed in two pieces split at `cut`. */
function masked(wire: string, cut: number): { tree: string; text: string } {
  const bytes = Buffer.from(wire);
  const tree = new ReplyTreeBuilder();
  const out: Buffer[] = [];
  const text = new ReplyTextSink('formatted', (c) => out.push(Buffer.from(c)));
  const parsers = [new RespStreamParser(new SecretMask(tree)), new RespStreamParser(new SecretMask(text))];
  for (const p of parsers) {
    p.feed(bytes.subarray(0, cut));
    p.feed(bytes.subarray(cut));
    expect(p.complete).toBe(true);
  }
  text.flush();
  return { tree: JSON.stringify(tree.root), text: Buffer.concat(out).toString('utf8') };
}

describe('SecretMask', () => {
  it('masks the value paired with a secret name at any depth: EXEC arrays, RESP3 maps, simple strings, Valkey names', () => {
    const wire =
      '*4\r\n' +
      `*2\r\n${bulk('requirepass')}${bulk('pw-one')}` +
      `%2\r\n${bulk('masterauth')}${bulk('pw-two')}${bulk('maxmemory')}${bulk('100')}` +
      `*1\r\n*4\r\n+primaryuser\r\n+pw-three\r\n${bulk('primaryauth')}:4242\r\n` +
      `*3\r\n${bulk('requirepass')}${bulk('not-a-pair')}${bulk('x')}`;
    const data = `*4\r\n${bulk('auth_token')}${bulk('kept-1')}${bulk('Password')}${bulk('kept-2')}`;
    expect(masked(data, 7).tree).toContain('kept-1');
    expect(masked(data, 7).text).toContain('kept-2');
    for (let cut = 1; cut < wire.length; cut++) {
      const { tree, text } = masked(wire, cut);
      for (const out of [tree, text]) {
        expect(out).not.toMatch(/pw-one|pw-two|pw-three|4242/);
        expect(out.split('(secret)').length - 1).toBe(4);
        // Not a secret's value: a plain parameter, and an odd-count array (no pairs).
        expect(out).toContain('100');
        expect(out).toContain('not-a-pair');
      }
    }
  });

  it('shows a named-but-a-choice value only while it is one of the choices', () => {
    const shown = masked(`*4\r\n${bulk('tls-auth-clients')}${bulk('optional')}${bulk('tls-auth-clients')}${bulk('hunter2')}`, 5);
    for (const out of [shown.tree, shown.text]) {
      expect(out).toContain('optional');
      expect(out).not.toContain('hunter2');
    }
  });

  it('masks a long secret without keeping it, and a null stays null', () => {
    const long = 'L'.repeat(100_000);
    const { tree, text } = masked(`*4\r\n${bulk('requirepass')}${bulk(long)}${bulk('masterauth')}$-1\r\n`, 1000);
    expect(tree).not.toContain('LLLL');
    expect(text).not.toContain('LLLL');
    expect(text).toContain('(nil)');
  });
});
