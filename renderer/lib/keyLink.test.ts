import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../../app/keyText';
import { fromBase64Url, keyBytesFromEscaped, keyLinkHref, toBase64Url } from './keyLink';

describe('key links', () => {
  it('carry the exact bytes as base64url and read back', () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0x3e, 0x0d, 0x0a, 0x00]);
    const href = keyLinkHref({ profileId: 'p_1', db: 2, keyB64: bytesToBase64(bytes) });
    expect(href).toMatch(/^#\/keys\?profile=p_1&db=2&key=[A-Za-z0-9_-]+$/);
    const param = new URLSearchParams(href.split('?')[1]).get('key') as string;
    expect(base64ToBytes(fromBase64Url(param) as string)).toEqual(bytes);
  });

  it('accept every padding length', () => {
    for (const n of [0, 1, 2, 3, 4, 5]) {
      const b64 = bytesToBase64(Uint8Array.from({ length: n }, (_, i) => 250 + i));
      expect(fromBase64Url(toBase64Url(b64))).toBe(b64);
    }
    expect(fromBase64Url('a*b')).toBeUndefined();
    expect(fromBase64Url('abcde')).toBeUndefined();
  });

  it('read escaped text back to its bytes, and refuse a cut escape', () => {
    expect(keyBytesFromEscaped('bin:\\xff\\r\\n')).toEqual(Uint8Array.from([0x62, 0x69, 0x6e, 0x3a, 0xff, 0x0d, 0x0a]));
    expect(keyBytesFromEscaped('say \\"hi\\" \\u202e')).toEqual(new TextEncoder().encode('say "hi" \u202e'));
    expect(keyBytesFromEscaped('cut:\\x')).toBeUndefined();
  });
});
