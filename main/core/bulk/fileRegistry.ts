import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, lstatSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../../app/errors';
import type { LoadFile } from '../../../app/schemas/bulk';

export interface FileRegistryOptions {
  /** Server-side folder whose regular files are offered for loading (web build). */
  importDir?: string;
  /** Where uploads are streamed to. */
  uploadDir: string;
  uploadLimitBytes: number;
}

interface Entry {
  file: LoadFile;
  path: string;
}

/** Display names only: path separators and control characters never reach the disk name. */
function safeName(name: string): string {
  const base = name.replace(/[\\/]/g, '_').replace(/[\p{Cc}]/gu, '').trim();
  return (base === '' ? 'upload' : base).slice(0, 200);
}

/**
 * Maps opaque file ids to paths on the Node side, so the renderer never sends
 * a path: it can only name files this registry offered (import folder,
 * uploads, files picked in the desktop dialog, the CLI's argument).
 */
export class FileRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly opts: FileRegistryOptions) {}

  get uploadLimitBytes(): number {
    return this.opts.uploadLimitBytes;
  }

  register(path: string, origin: LoadFile['origin'], name = basename(path)): LoadFile {
    const st = statSync(path);
    if (!st.isFile()) throw new AppError('VALIDATION', `${path} is not a regular file`, 'file');
    const file: LoadFile = { fileId: `f_${randomBytes(9).toString('base64url')}`, name, size: st.size, origin };
    this.entries.set(file.fileId, { file, path });
    return file;
  }

  list(): LoadFile[] {
    this.refreshImports();
    const live: LoadFile[] = [];
    for (const [id, e] of this.entries) {
      try {
        live.push({ ...e.file, size: statSync(e.path).size });
      } catch {
        this.entries.delete(id); // deleted behind our back
      }
    }
    return live.sort((a, b) => a.name.localeCompare(b.name));
  }

  resolve(fileId: string): { path: string; name: string } {
    if (this.opts.importDir !== undefined && !this.entries.has(fileId)) this.refreshImports();
    const e = this.entries.get(fileId);
    if (!e) throw new AppError('NOT_FOUND', 'That file is no longer available; pick or upload it again', 'fileId');
    return { path: e.path, name: e.file.name };
  }

  /** Streams an upload to disk; past the limit the partial file is removed and 413-style CONFLICT raised. */
  async saveUpload(name: string, body: Readable): Promise<LoadFile> {
    mkdirSync(this.opts.uploadDir, { recursive: true, mode: 0o700 });
    const clean = safeName(name);
    const path = join(this.opts.uploadDir, `${randomBytes(6).toString('hex')}-${clean}`);
    let bytes = 0;
    const limit = this.opts.uploadLimitBytes;
    const counter = async function* (src: AsyncIterable<Buffer>) {
      for await (const chunk of src) {
        bytes += chunk.length;
        if (bytes > limit) throw new AppError('VALIDATION', `Upload is larger than the limit of ${limit} bytes`, 'file');
        yield chunk;
      }
    };
    const out = createWriteStream(path, { mode: 0o600 });
    try {
      await pipeline(body, counter, out);
    } catch (e) {
      // The stream opens its file asynchronously: wait until it is closed, or removing first lets the open recreate it.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      rmSync(path, { force: true });
      throw e;
    }
    return this.register(path, 'upload', clean);
  }

  private refreshImports(): void {
    const dir = this.opts.importDir;
    if (dir === undefined) return;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      // Symlinks are skipped so the import folder cannot point outside itself.
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (!st?.isFile()) continue;
      // Stable ids for import files, so a page reload still names the same file.
      const fileId = `f_imp${createHash('sha256').update(path).digest('base64url').slice(0, 20)}`;
      this.entries.set(fileId, { file: { fileId, name, size: st.size, origin: 'import' }, path });
    }
  }
}
