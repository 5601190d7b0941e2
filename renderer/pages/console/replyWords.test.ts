import { describe, expect, it } from 'vitest';
import { cutNote, downloadName } from './cutText';
import { typedBack } from './HeldBox';
import { verbatimText } from './ReplyValue';

describe('the words of a cut reply and of a held one', () => {
  it('counts what is shown as the user counts it, and sizes the whole', () => {
    const cut = { totalElements: 1_000_001, totalBytes: 6_000_000, fileBytes: 8_000_000, downloadId: 'x' };
    const items = Array.from({ length: 19_999 }, (_, i) => ({ t: 'bulk' as const, v: `"${i}"`, bytes: String(i).length }));
    expect(cutNote(cut, { t: 'array', items, total: 1_000_000 })).toBe(
      'Shown: 19,999 of 1,000,000 elements (5.72 MiB of data), as the page shows at most 20,000 values, 2.00 MiB of data, 64.0 KiB of any one string. The whole reply (7.63 MiB) is in the download.',
    );
    const map = {
      t: 'map' as const,
      entries: [
        [
          { t: 'bulk' as const, v: '"k"', bytes: 1 },
          { t: 'integer' as const, v: '1' },
        ],
      ] as [never, never][],
      total: 40_000,
    };
    expect(cutNote(cut, map)).toContain('Shown: 1 of 40,000 entries');
    expect(cutNote({ ...cut, totalBytes: 100 * 1024 * 1024 }, { t: 'bulk', v: '"aaa"', bytes: 100 * 1024 * 1024, cut: true })).toContain(
      'Shown: the start of a 100 MiB string',
    );
  });

  it('names a download by command and node, safe for any file system', () => {
    expect(downloadName('CONFIG GET', '10.0.0.1:6379', true)).toBe('config-get-10.0.0.1-6379-raw.txt');
  });

  it('takes a held command typed back in any case and spacing', () => {
    expect(typedBack(' config   set ', 'CONFIG SET')).toBe(true);
    expect(typedBack('FLUSHDB', 'FLUSHALL')).toBe(false);
  });
});

describe('a verbatim string as text', () => {
  it('breaks its escaped line ends into lines and keeps an escaped backslash', () => {
    expect(verbatimText('# Server\\r\\nredis_version:7.0.15\\r\\n')).toBe('# Server\nredis_version:7.0.15\n');
    expect(verbatimText('a\\\\nb\\nc')).toBe('a\\\\nb\nc');
  });
});
