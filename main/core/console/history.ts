import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, renameSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../app/errors';
import { HISTORY_LINES } from '../../../app/schemas/console';
import { ProfileId } from '../../../app/schemas/common';
import { atomicWriteFileSync } from '../pool/atomicWrite';

/** A line longer than this is not kept: a cut command would be another command. */
export const HISTORY_LINE_CHARS = 64 * 1024;
/** The lines of one history add up to at most this many characters (oldest dropped first). */
export const HISTORY_TOTAL_CHARS = 1024 * 1024;
/** A history file larger than this was not written by us: set aside as corrupt. */
const MAX_FILE_BYTES = 4 * HISTORY_TOTAL_CHARS + 64 * 1024;
/** Open without following a symlink in the last component (ELOOP); 0 where the OS has no such flag. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

interface HistoryFile {
  version: 1;
  lines: string[];
}

function refuseLink(path: string, st: Stats): void {
  if (st.isSymbolicLink()) {
    throw new AppError('CONFLICT', `The console history ${path} is a symbolic link: Cacheboard does not follow it. Remove the link.`);
  }
}

/** The file's lines, or undefined when it is not a history file we wrote. */
function parseHistory(text: string): string[] | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const { version, lines } = data as Partial<HistoryFile>;
  if (version !== 1 || !Array.isArray(lines) || !lines.every((l): l is string => typeof l === 'string')) return undefined;
  return lines;
}

/** The newest lines that fit HISTORY_LINES and HISTORY_TOTAL_CHARS. */
function capped(lines: readonly string[]): string[] {
  let total = 0;
  let from = lines.length;
  while (from > 0 && lines.length - from < HISTORY_LINES) {
    const next = total + (lines[from - 1] as string).length;
    if (next > HISTORY_TOTAL_CHARS) break;
    total = next;
    from--;
  }
  return lines.slice(from);
}

/**
 * The console history of each user and profile: JSON files written atomically under
 * `<dir>/<user hash>/<profile>.json`, HISTORY_LINES kept, oldest dropped. Lines are stored as
 * given: the caller redacts them first (redactArgs).
 *
 * The user's folder is named by the SHA-256 of the name, so no user name reaches the path;
 * the profile id must be a ProfileId. A symlink in place of the folder or the file is refused,
 * never followed. Like a shell: a line equal to the one before it is kept once, an empty one
 * not at all. A file that does not parse is set aside (`<profile>.json.corrupt`, the last one
 * kept) and the history starts over.
 */
export class ConsoleHistory {
  constructor(readonly dir: string) {}

  add(user: string, profileId: string, line: string): void {
    if (line.trim() === '' || line.length > HISTORY_LINE_CHARS) return;
    const file = this.fileOf(user, profileId, true);
    const lines = this.read(file);
    if (lines[lines.length - 1] === line) return;
    lines.push(line);
    const body: HistoryFile = { version: 1, lines: capped(lines) };
    atomicWriteFileSync(file, JSON.stringify(body));
  }

  list(user: string, profileId: string): string[] {
    return this.read(this.fileOf(user, profileId, false));
  }

  private fileOf(user: string, profileId: string, create: boolean): string {
    const id = ProfileId.safeParse(profileId);
    if (!id.success) throw new AppError('VALIDATION', `profileId: ${id.error.issues[0]?.message ?? 'not a profile id'}`, 'profileId');
    const userDir = join(this.dir, createHash('sha256').update(user, 'utf8').digest('hex'));
    if (create) mkdirSync(userDir, { recursive: true, mode: 0o700 });
    try {
      refuseLink(userDir, lstatSync(userDir));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return join(userDir, `${id.data}.json`);
  }

  /** The lines of `file`; [] when there is none, or when it was corrupt (then set aside). */
  private read(file: string): string[] {
    let fd: number;
    try {
      // lstat first for systems without O_NOFOLLOW; O_NOFOLLOW closes the gap where it exists.
      refuseLink(file, lstatSync(file));
      fd = openSync(file, constants.O_RDONLY | NOFOLLOW);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return [];
      if (code === 'ELOOP') refuseLink(file, lstatSync(file));
      throw err;
    }
    let text: string | undefined;
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new AppError('CONFLICT', `The console history ${file} is not a regular file. Remove it.`);
      if (st.size <= MAX_FILE_BYTES) {
        const buf = Buffer.alloc(st.size);
        let got = 0;
        while (got < st.size) {
          const n = readSync(fd, buf, got, st.size - got, got);
          if (n === 0) break;
          got += n;
        }
        text = buf.subarray(0, got).toString('utf8');
      }
    } finally {
      closeSync(fd);
    }
    const lines = text === undefined ? undefined : parseHistory(text);
    if (lines !== undefined) return capped(lines);
    renameSync(file, `${file}.corrupt`);
    return [];
  }
}
