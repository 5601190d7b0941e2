import { describe, expect, it } from 'vitest';
import { KEY_TEXT_MAX_CHARS, keyName } from './keyText';

describe('keyName', () => {
  it('shows binary and odd keys as escaped text with their real byte length', () => {
    expect(keyName(Buffer.from([0xff, 0xfe]))).toEqual({ text: '\\xff\\xfe', bytes: 2, truncated: false });
    expect(keyName(Buffer.from('line\r\nbreak\t"q"\\'))).toEqual({
      text: 'line\\r\\nbreak\\t\\"q\\"\\\\',
      bytes: 16,
      truncated: false,
    });
  });

  it('cuts a 10 KB key to 1,024 characters and says so', () => {
    const k = keyName(Buffer.alloc(10_240, 'k'));
    expect(k.text).toHaveLength(KEY_TEXT_MAX_CHARS);
    expect(k).toMatchObject({ bytes: 10_240, truncated: true });
  });

  it('never ends a cut key in half an escape', () => {
    const k = keyName(Buffer.alloc(5_000, 0xff));
    expect(k.text.length).toBeLessThanOrEqual(KEY_TEXT_MAX_CHARS);
    expect(k.text).toMatch(/^(\\xff)+$/);
  });
});
