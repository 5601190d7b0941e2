import { describe, expect, it } from 'vitest';
import { parseEscaped } from '../../../app/keyText';
import { globEscapeBytes, globOfFolder } from './globText';

const bytesOf = (s: string) => parseEscaped(s);

describe('globOfFolder', () => {
  it('is the folder plus a star when nothing is special', () => {
    expect(globOfFolder('user:')).toBe('user:*');
  });

  // Each case: the escaped prefix text as the server shows it.
  const cases = ['user:', 'a*b:', 'q?[x]:', 'back\\\\slash:', '\\xff\\r\\n:', '\\x5c\\x2a:', 'say \\"hi\\":', 'rtl\\u202e:', 'é日本:'];
  for (const text of cases) {
    it(`types back to the folder's bytes, glob-escaped, then * (${text})`, () => {
      const want = Uint8Array.from([...globEscapeBytes(bytesOf(text)), 0x2a]);
      expect(bytesOf(globOfFolder(text))).toEqual(want);
    });
  }
});
