import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FileRegistry } from './fileRegistry';

function setup(limit = 1024) {
  const root = mkdtempSync(join(tmpdir(), 'cb-files-'));
  const importDir = join(root, 'import');
  const outside = join(root, 'outside.csv');
  writeFileSync(outside, 'secret');
  mkdirSync(importDir);
  writeFileSync(join(importDir, 'a.csv'), 'id,v\n1,x\n');
  symlinkSync(outside, join(importDir, 'link.csv'));
  const reg = new FileRegistry({ importDir, uploadDir: join(root, 'uploads'), uploadLimitBytes: limit });
  return { reg, root };
}

describe('file registry', () => {
  it('offers regular files of the import folder with stable ids, and skips symlinks', () => {
    const { reg } = setup();
    const first = reg.list();
    expect(first.map((f) => f.name)).toEqual(['a.csv']);
    expect(reg.list()[0]?.fileId).toBe(first[0]?.fileId);
    expect(reg.resolve(first[0]?.fileId ?? '').path).toMatch(/import\/a\.csv$/);
  });

  it('refuses ids it never handed out', () => {
    const { reg } = setup();
    expect(() => reg.resolve('f_nosuchfile')).toThrow(/no longer available/);
  });

  it('streams uploads to disk under a safe name', async () => {
    const { reg } = setup();
    const f = await reg.saveUpload('../../x/evil.csv', Readable.from([Buffer.from('id\n1\n')]));
    expect(f.name).toBe('.._.._x_evil.csv');
    expect(f.size).toBe(5);
    expect(reg.resolve(f.fileId).path).toContain('uploads');
  });

  it('removes a partial upload over the limit', async () => {
    const { reg, root } = setup(10);
    await expect(reg.saveUpload('big.csv', Readable.from([Buffer.alloc(6), Buffer.alloc(6)]))).rejects.toThrow(/limit of 10/);
    expect(reg.list().filter((f) => f.origin === 'upload')).toHaveLength(0);
    expect(readdirSync(join(root, 'uploads'))).toHaveLength(0);
  });
});
