import { describe, expect, it } from 'vitest';
import { parseUploadResponse, uploadUrl } from './upload';

const file = { fileId: 'f_abc123', name: 'users.csv', size: 12, origin: 'upload' };

describe('upload responses', () => {
  it('puts the file name in the query, encoded', () => {
    expect(uploadUrl('a b&c.csv')).toBe('/api/uploads?name=a%20b%26c.csv');
  });

  it('returns the stored file', () => {
    expect(parseUploadResponse(200, JSON.stringify({ file }))).toEqual(file);
  });

  it("throws the server's error with its code", () => {
    const body = JSON.stringify({ error: { code: 'VALIDATION', message: 'file is too large' } });
    expect(() => parseUploadResponse(413, body)).toThrow(expect.objectContaining({ code: 'VALIDATION', message: 'file is too large' }));
  });

  it('names the limit when a proxy answers 413 with a page of its own', () => {
    expect(() => parseUploadResponse(413, '<html>Too large</html>', 1024 * 1024)).toThrow(/upload limit of 1.00 MiB/);
  });

  it('does not take a malformed success for a file', () => {
    expect(() => parseUploadResponse(200, JSON.stringify({ file: { name: 'x' } }))).toThrow(/HTTP 200/);
  });
});
