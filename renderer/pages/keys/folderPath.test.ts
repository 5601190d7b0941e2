import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../../../app/keyText';
import { folderPath } from './folderPath';

const b64 = (s: string | number[]) => bytesToBase64(typeof s === 'string' ? new TextEncoder().encode(s) : Uint8Array.from(s));
const text = (list: string[]) => list.map((p) => new TextDecoder().decode(base64ToBytes(p)));

describe('folderPath', () => {
  it('lists every folder down to the one given', () => {
    expect(text(folderPath(b64('user:profile:eu:'), ':'))).toEqual(['user:', 'user:profile:', 'user:profile:eu:']);
  });

  it('splits on a separator of several characters, and on bytes that are not UTF-8', () => {
    expect(text(folderPath(b64('a::b::'), '::'))).toEqual(['a::', 'a::b::']);
    expect(folderPath(b64([0xff, 0x3a, 0xfe, 0x3a]), ':')).toEqual([b64([0xff, 0x3a]), b64([0xff, 0x3a, 0xfe, 0x3a])]);
  });

  it('is empty for the whole DB', () => {
    expect(folderPath('', ':')).toEqual([]);
  });
});
