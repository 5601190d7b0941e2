import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FileRegistry } from './fileRegistry';
import { openInputFile } from './inputFile';
import { openSource, previewSource } from './sources/openSource';

function setup(limit = 1024) {
  const root = mkdtempSync(join(tmpdir(), 'cb-files-'));
  const importDir = join(root, 'import');
  const outside = join(root, 'outside.csv');
  writeFileSync(outside, 'id,v\n1,TOP-SECRET\n');
  mkdirSync(importDir);
  writeFileSync(join(importDir, 'a.csv'), 'id,v\n1,x\n');
  symlinkSync(outside, join(importDir, 'link.csv'));
  const told: string[] = [];
  const reg = new FileRegistry({ importDir, uploadDir: join(root, 'uploads'), uploadLimitBytes: limit, log: (m) => told.push(m) });
  return { reg, root, importDir, outside, told };
}

/** Replaces a listed file's name with something else, as someone with write access to the folder could. */
function swap(path: string, make: (path: string) => void): void {
  rmSync(path);
  make(path);
}

async function readAll(file: Parameters<typeof openInputFile>[0]): Promise<string> {
  const { handle } = await openInputFile(file, 'x');
  try {
    return (await handle.readFile()).toString();
  } finally {
    await handle.close();
  }
}

describe('file registry', () => {
  it('offers regular files of the import folder with stable ids, and skips symlinks', () => {
    const { reg } = setup();
    const first = reg.list();
    expect(first.map((f) => f.name)).toEqual(['a.csv']);
    expect(reg.list()[0]?.fileId).toBe(first[0]?.fileId);
    expect(reg.resolve(first[0]?.fileId ?? '').path).toMatch(/import\/a\.csv$/);
  });

  it('skips symlinks, hard-linked files and FIFOs, and says why once', () => {
    const { reg, importDir, outside, told } = setup();
    linkSync(outside, join(importDir, 'hard.csv'));
    execFileSync('mkfifo', [join(importDir, 'pipe.csv')]);
    mkdirSync(join(importDir, 'sub'));
    expect(reg.list().map((f) => f.name)).toEqual(['a.csv']);
    expect([...reg.skipped].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'hard.csv', problem: 'has 2 hard links' },
      { name: 'link.csv', problem: 'is a symbolic link' },
      { name: 'pipe.csv', problem: 'is not a regular file' },
    ]);
    reg.list();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/3 entries not offered: .*"hard\.csv" has 2 hard links/);
  });

  it('refuses a listed file swapped for a symlink or a hard link to a file outside, in preview and load alike', async () => {
    const { reg, importDir, outside } = setup();
    const id = reg.list()[0]?.fileId ?? '';
    const opts = { file: 'a.csv', format: 'csv' as const, mapping: { key: 'k:{id}', type: 'string' as const, value: 'v' } };
    swap(join(importDir, 'a.csv'), (p) => symlinkSync(outside, p));
    await expect(previewSource(reg.resolve(id), opts, 5)).rejects.toThrow(/"a\.csv" is a symbolic link/);
    await expect(openSource(reg.resolve(id), opts)).rejects.toThrow(/"a\.csv" is a symbolic link/);
    swap(join(importDir, 'a.csv'), (p) => linkSync(outside, p));
    await expect(previewSource(reg.resolve(id), opts, 5)).rejects.toThrow(/"a\.csv" has 2 hard links/);
    await expect(openSource(reg.resolve(id), opts)).rejects.toThrow(/has 2 hard links/);
    // A listed file is dropped from the next listing once it is a link.
    expect(reg.list().map((f) => f.name)).toEqual([]);
  });

  it('refuses a FIFO swapped in without waiting for a writer', async () => {
    const { reg, importDir } = setup();
    const id = reg.list()[0]?.fileId ?? '';
    swap(join(importDir, 'a.csv'), (p) => execFileSync('mkfifo', [p]));
    await expect(readAll(reg.resolve(id))).rejects.toThrow(/not a regular file/);
  });

  it('reads through the checked descriptor: a swap after the open changes nothing read', async () => {
    const { reg, importDir, outside } = setup();
    const id = reg.list()[0]?.fileId ?? '';
    const { handle } = await openInputFile(reg.resolve(id), 'a.csv');
    swap(join(importDir, 'a.csv'), (p) => symlinkSync(outside, p));
    expect((await handle.readFile()).toString()).toBe('id,v\n1,x\n');
    await handle.close();
  });

  it('a load checks the file again each time it reads it', async () => {
    const { reg, importDir, outside } = setup();
    const id = reg.list()[0]?.fileId ?? '';
    const source = await openSource(reg.resolve(id), { file: 'a.csv', format: 'csv', mapping: { key: 'k:{id}', type: 'string', value: 'v' } });
    swap(join(importDir, 'a.csv'), (p) => symlinkSync(outside, p));
    // Every batches() opens the file again under the same checks.
    await expect(source.batches()[Symbol.asyncIterator]().next()).rejects.toThrow(/symbolic link/);
  });

  it('follows a picked file as the user named it (desktop dialog), and reads a plain folder file', async () => {
    const { reg, root, outside } = setup();
    const link = join(root, 'picked-link.csv');
    symlinkSync(outside, link);
    const picked = reg.register(link, 'picked');
    expect(await readAll(reg.resolve(picked.fileId))).toContain('TOP-SECRET');
    expect(await readAll(reg.resolve(reg.list().find((f) => f.origin === 'import')?.fileId ?? ''))).toBe('id,v\n1,x\n');
  });

  it('opens uploads under the same rules as the import folder', async () => {
    const { reg, root, outside } = setup();
    const f = await reg.saveUpload('up.csv', Readable.from([Buffer.from('id\n1\n')]));
    const path = reg.resolve(f.fileId).path;
    expect(reg.resolve(f.fileId).folder).toBe(join(root, 'uploads'));
    swap(path, (p) => symlinkSync(outside, p));
    await expect(readAll(reg.resolve(f.fileId))).rejects.toThrow(/symbolic link/);
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
