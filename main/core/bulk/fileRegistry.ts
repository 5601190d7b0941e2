import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, lstatSync, mkdirSync, readdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../../app/errors';
import type { LoadFile } from '../../../app/schemas/bulk';
import { folderFileProblem, type InputFile } from './inputFile';

export interface FileRegistryOptions {
  /** Server-side folder whose regular files are offered for loading (web build). */
  importDir?: string;
  /** Where uploads are streamed to. */
  uploadDir: string;
  uploadLimitBytes: number;
  /** Told when the import folder's skipped entries change (the server log). */
  log?: (msg: string) => void;
}

interface Entry {
  file: LoadFile;
  path: string;
  /** The folder the file must stay a plain file of (import folder, uploads); see inputFile.ts. */
  folder?: string;
}

/** Import-folder entries left out of the list at the last listing, each with why. */
export interface SkippedEntry {
  name: string;
  problem: string;
}

/** Display names only: path separators and control characters never reach the disk name. */
function safeName(name: string): string {
  const base = name
    .replace(/[\\/]/g, '_')
    .replace(/[\p{Cc}]/gu, '')
    .trim();
  return (base === '' ? 'upload' : base).slice(0, 200);
}

/**
 * Maps opaque file ids to paths on the Node side, so the renderer never sends
 * a path: it can only name files this registry offered (import folder,
 * uploads, files picked in the desktop dialog, the CLI's argument).
 */
export class FileRegistry {
  private readonly entries = new Map<string, Entry>();
  private skippedNow: SkippedEntry[] = [];
  private skippedTold = '';

  constructor(private readonly opts: FileRegistryOptions) {}

  /** What the last listing of the import folder left out, and why. */
  get skipped(): readonly SkippedEntry[] {
    return this.skippedNow;
  }

  get uploadLimitBytes(): number {
    return this.opts.uploadLimitBytes;
  }

  /** A file the user picked (desktop dialog): followed as given, like any path the user names. */
  register(path: string, origin: LoadFile['origin'], name = basename(path)): LoadFile {
    const st = statSync(path);
    if (!st.isFile()) throw new AppError('VALIDATION', `${path} is not a regular file`, 'file');
    return this.add({ path }, origin, name, st.size);
  }

  list(): LoadFile[] {
    this.refreshImports();
    const live: LoadFile[] = [];
    for (const [id, e] of this.entries) {
      // A folder's file is looked at, never through (lstat): a link swapped in is dropped, not measured.
      const st = e.folder === undefined ? statSync(e.path, { throwIfNoEntry: false }) : lstatSync(e.path, { throwIfNoEntry: false });
      if (st?.isFile()) live.push({ ...e.file, size: st.size });
      else this.entries.delete(id); // deleted or replaced behind our back
    }
    return live.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The file behind an id; open it with openInputFile, which applies its folder's rules. */
  resolve(fileId: string): InputFile & { name: string } {
    if (this.opts.importDir !== undefined && !this.entries.has(fileId)) this.refreshImports();
    const e = this.entries.get(fileId);
    if (!e) throw new AppError('NOT_FOUND', 'That file is no longer available; pick or upload it again', 'fileId');
    return { path: e.path, name: e.file.name, ...(e.folder === undefined ? {} : { folder: e.folder }) };
  }

  private add(input: InputFile, origin: LoadFile['origin'], name: string, size: number, fileId = `f_${randomBytes(9).toString('base64url')}`): LoadFile {
    const file: LoadFile = { fileId, name, size, origin };
    this.entries.set(fileId, { file, ...input });
    return file;
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
    const size = statSync(path).size;
    return this.add({ path, folder: this.opts.uploadDir }, 'upload', clean, size);
  }

  /**
   * Lists the import folder afresh: its plain files are offered, anything that
   * could lead outside it (a symlink, a file with another hard link, a mount) is
   * skipped and told. Opening checks the same again on the descriptor
   * (inputFile.ts), since the folder can change between listing and loading.
   */
  private refreshImports(): void {
    const dir = this.opts.importDir;
    if (dir === undefined) return;
    for (const [id, e] of this.entries) if (e.file.origin === 'import') this.entries.delete(id);
    let names: string[];
    let folder: Stats;
    try {
      folder = statSync(dir);
      names = readdirSync(dir);
    } catch {
      return;
    }
    const skipped: SkippedEntry[] = [];
    for (const name of names) {
      const path = join(dir, name);
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (st === undefined) continue;
      if (st.isDirectory()) continue; // folders are simply not files; nothing to warn about
      const problem = folderFileProblem(st, folder.dev);
      if (problem !== undefined) {
        skipped.push({ name, problem });
        continue;
      }
      // Stable ids for import files, so a page reload still names the same file.
      const fileId = `f_imp${createHash('sha256').update(path).digest('base64url').slice(0, 20)}`;
      this.add({ path, folder: dir }, 'import', name, st.size, fileId);
    }
    this.skippedNow = skipped;
    const told = skipped.map((s) => `${JSON.stringify(s.name)} ${s.problem}`).join('; ');
    if (told !== this.skippedTold) {
      this.skippedTold = told;
      if (told !== '') this.opts.log?.(`import folder ${dir}: ${skipped.length} entr${skipped.length === 1 ? 'y' : 'ies'} not offered: ${told}`);
    }
  }
}
