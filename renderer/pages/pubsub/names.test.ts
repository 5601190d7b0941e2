import { describe, expect, it } from 'vitest';
import { typedNames } from './names';

const b64 = (s: string | number[]) => Buffer.from(typeof s === 'string' ? Buffer.from(s) : Uint8Array.from(s)).toString('base64');

describe('typedNames', () => {
  it('reads one name a line with escapes, skipping blank lines and repeats', () => {
    expect(typedNames('news\n\n  \norders\\xff\nnews\r\n')).toEqual({ b64: [b64('news'), b64([...Buffer.from('orders'), 0xff])], error: undefined });
  });

  it('names the line and the position of a bad escape', () => {
    expect(typedNames('ok\nbad\\x4')).toEqual({ b64: [], error: 'line 2: \\x at position 4 needs two hex digits, as in \\xff' });
  });
});
