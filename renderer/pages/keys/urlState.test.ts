import { describe, expect, it } from 'vitest';
import { bytesToBase64 } from '../../../app/keyText';
import { keysUrlHash, readKeysUrl } from './urlState';

describe('Keys URL state', () => {
  it('round-trips every part, bytes included', () => {
    const keyB64 = bytesToBase64(Uint8Array.from([0xff, 0xfb, 0x3e, 0x0d, 0x0a]));
    const state = { profileId: 'p_1', db: 3, separator: '::', prefixB64: bytesToBase64(Uint8Array.from([0xfe, 0x3a])), match: 'a b\\xff*', keyB64 };
    const hash = keysUrlHash(state);
    expect(/key=([^&]*)/.exec(hash)?.[1]).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(readKeysUrl(hash)).toEqual(state);
  });

  it('takes standard base64 from a link typed by hand', () => {
    expect(readKeysUrl('#/keys?key=%2B%2F8%3D').keyB64).toBe('+/8=');
  });

  it('drops what is not a DB or not base64', () => {
    expect(readKeysUrl('#/keys?db=x&key=a*b&sep=')).toEqual({
      profileId: undefined,
      db: undefined,
      separator: undefined,
      prefixB64: undefined,
      match: undefined,
      keyB64: undefined,
    });
  });

  it('has nothing without a query', () => {
    expect(readKeysUrl('#/keys')).toEqual({});
    expect(keysUrlHash({})).toBe('#/keys');
  });
});
