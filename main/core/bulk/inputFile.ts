import { constants, type Stats } from 'node:fs';
import { lstat, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AppError } from '../../../app/errors';

/**
 * A file a load or a preview reads. `folder` is set for files the server
 * offered from a folder it lists (the import folder, uploads): such a file must
 * still be one of that folder's own regular files when it is opened. Files the
 * user named (the CLI's argument, the desktop dialog) have no folder and are
 * followed as given.
 */
export interface InputFile {
  path: string;
  folder?: string;
}

export interface OpenedInput {
  /** Read the file through this descriptor only: the checks were made on it, not on the path. */
  handle: FileHandle;
  size: number;
}

/**
 * O_NOFOLLOW makes open() fail with ELOOP when the last component is a symlink,
 * so a name swapped for a link after listing is never followed. Windows has no
 * such flag; the inode comparison below refuses a link there instead.
 * O_NONBLOCK keeps open() of a FIFO swapped in from blocking until a writer
 * comes; it changes nothing for regular files.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Why a folder's entry is not offered, or not opened. Undefined: it is a plain file of the folder. */
export function folderFileProblem(st: { isFile(): boolean; isSymbolicLink(): boolean; nlink: number; dev: number }, folderDev: number): string | undefined {
  if (st.isSymbolicLink()) return 'is a symbolic link';
  if (!st.isFile()) return 'is not a regular file';
  // Another name for the same inode may live outside the folder (ln /etc/shadow x.csv).
  if (st.nlink !== 1) return `has ${st.nlink} hard links`;
  // A mount over the name brings another file system's file into the folder.
  if (st.dev !== folderDev) return 'is on another file system than the folder';
  return undefined;
}

function refusal(label: string, problem: string, inFolder = true): AppError {
  const rule = inFolder ? "; only the folder's own regular files (one link, no symlinks) are read" : '';
  return new AppError('VALIDATION', `The input file "${label}" ${problem}${rule}`, 'fileId');
}

function openError(err: unknown, label: string): unknown {
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  if (code === 'ELOOP') return refusal(label, 'is a symbolic link');
  if (code === 'ENOENT') return new AppError('NOT_FOUND', `The input file "${label}" no longer exists`, 'fileId');
  if (code === 'EACCES' || code === 'EPERM') return new AppError('VALIDATION', `The input file "${label}" cannot be read (permission denied)`, 'fileId');
  return err;
}

/**
 * Opens an input file for reading and checks the opened descriptor, so a swap
 * of the name between listing, checking and reading cannot win: what is read
 * is exactly what was checked. For a folder's file: opened by its name inside
 * the folder's real path without following a link, and the descriptor must be
 * a regular file with one link on the folder's device, the very inode the
 * folder's entry names (so its only name is inside the folder). The caller
 * owns the handle and must close it.
 */
export async function openInputFile(file: string | InputFile, label: string): Promise<OpenedInput> {
  const { path, folder } = typeof file === 'string' ? { path: file, folder: undefined } : file;
  if (folder === undefined) {
    const handle = await open(path, OPEN_FLAGS).catch((e: unknown) => Promise.reject(openError(e, label)));
    return checked(
      handle,
      async (st) => (st.isFile() ? undefined : 'is not a regular file'),
      (p) => refusal(label, p, false),
    );
  }
  // Folders offer their direct entries only: a name with a directory part is not one of them.
  if (resolve(dirname(path)) !== resolve(folder)) throw refusal(label, 'is not directly inside its folder');
  const realFolder = await realpath(folder);
  const inside = join(realFolder, basename(path));
  const handle = await open(inside, OPEN_FLAGS | NOFOLLOW).catch((e: unknown) => Promise.reject(openError(e, label)));
  return checked(
    handle,
    async (st) => {
      const [dir, entry] = await Promise.all([stat(realFolder), lstat(inside)]);
      const problem = folderFileProblem(st, dir.dev);
      if (problem !== undefined) return problem;
      // The name still names the inode we hold; with nlink 1 that name is its only one.
      if (entry.ino !== st.ino || entry.dev !== st.dev) return 'was replaced while it was being opened';
      return undefined;
    },
    (p) => refusal(label, p),
  );
}

async function checked(handle: FileHandle, problemOf: (st: Stats) => Promise<string | undefined>, refuse: (problem: string) => AppError): Promise<OpenedInput> {
  try {
    const st = await handle.stat();
    const problem = await problemOf(st);
    if (problem !== undefined) throw refuse(problem);
    return { handle, size: st.size };
  } catch (e) {
    await handle.close();
    throw e;
  }
}
