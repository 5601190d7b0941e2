import { describe, expect, it } from 'vitest';
import { PushReader, type PushItem } from './pushReader';

function reader(keep = 32) {
  const pushes: PushItem[][] = [];
  const errors: string[] = [];
  const r = new PushReader(keep, { push: (p) => pushes.push(p), error: (e) => errors.push(e) });
  return { r, pushes, errors };
}

const text = (i: PushItem | undefined) => (i !== null && typeof i === 'object' ? i.bytes.toString('latin1') : i);

describe('PushReader', () => {
  it('reads pushes split at every byte', () => {
    const { r, pushes } = reader();
    const wire = Buffer.from('*3\r\n$9\r\nsubscribe\r\n$4\r\nnews\r\n:1\r\n*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nhello\r\n');
    for (let i = 0; i < wire.length; i++) r.feed(wire.subarray(i, i + 1));
    expect(pushes.map((p) => p.map(text))).toEqual([
      ['subscribe', 'news', 1],
      ['message', 'news', 'hello'],
    ]);
  });

  it('keeps the first bytes of a long bulk string and its full length, skipping the rest as it streams', () => {
    const { r, pushes } = reader(40);
    const body = Buffer.alloc(100_000, 0x61);
    r.feed(Buffer.from('*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$100000\r\n'));
    for (let i = 0; i < body.length; i += 4096) r.feed(body.subarray(i, i + 4096));
    r.feed(Buffer.from('\r\n'));
    const payload = pushes[0]?.[2];
    expect(payload).toMatchObject({ length: 100_000 });
    expect(text(payload)).toBe('a'.repeat(40));
    expect(text(pushes[0]?.[0])).toBe('message');
  });

  it('passes bytes through untouched, an empty bulk and a null too', () => {
    const { r, pushes } = reader(16);
    r.feed(Buffer.concat([Buffer.from('*4\r\n$2\r\n'), Buffer.from([0xff, 0x00]), Buffer.from('\r\n$0\r\n\r\n$-1\r\n:7\r\n')]));
    const [bin, empty, nul, n] = pushes[0] ?? [];
    expect(bin).toMatchObject({ length: 2 });
    expect([...(bin as { bytes: Buffer }).bytes]).toEqual([0xff, 0x00]);
    expect(empty).toMatchObject({ length: 0 });
    expect(nul).toBeNull();
    expect(n).toBe(7);
  });

  it('hands top-level errors on, and refuses what is not RESP', () => {
    const { r, errors } = reader();
    r.feed(Buffer.from('-NOPERM this user has no permissions to access one of the channels\r\n'));
    expect(errors).toEqual(['NOPERM this user has no permissions to access one of the channels']);
    expect(() => r.feed(Buffer.from('?\r\n'))).toThrow(/unexpected byte 0x3f/);
  });
});
