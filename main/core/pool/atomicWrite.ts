import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * Replace `file` so that a crash leaves either the old or the new content,
 * never a torn mix: write a temp file in the same directory (rename is only
 * atomic within one filesystem), fsync it, rename over, fsync the directory.
 */
export function atomicWriteFileSync(file: string, text: string, mode = 0o600): void {
  const dir = dirname(file);
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(tmp, 'wx', mode);
    try {
      writeSync(fd, text);
      // The umask may have narrowed `mode` at open; set it exactly.
      fchmodSync(fd, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  syncDirSync(dir);
}

/** fsync a directory, so a rename in it survives a crash. */
export function syncDirSync(dir: string): void {
  try {
    const dfd = openSync(dir, 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the rename has happened regardless.
  }
}
