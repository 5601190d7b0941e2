import { describe, expect, it } from 'vitest';
import { cutNote, downloadName } from './cutText';
import { typedBack } from './HeldBox';
import { verbatimText } from './ReplyValue';

describe('the words of a cut reply and of a held one', () => {
  it('names the bound the reply met and the size of the whole', () => {
    expect(cutNote({ totalElements: 1_000_000, totalBytes: 1_000_000, fileBytes: 8_000_000, downloadId: 'x' })).toBe(
      'Shown: the first 20,000 elements of 1,000,000; the whole reply (7.63 MiB) is in the download.',
    );
    expect(cutNote({ totalElements: 10, totalBytes: 5 * 1024 * 1024, fileBytes: 6 * 1024 * 1024, downloadId: 'x' })).toBe(
      'Shown: the first 2.00 MiB of 5.00 MiB; the whole reply (6.00 MiB) is in the download.',
    );
    expect(cutNote({ totalElements: 1, totalBytes: 100_000, fileBytes: 100_020, downloadId: 'x' })).toContain("each string's first 64.0 KiB");
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
