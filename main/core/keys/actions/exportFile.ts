import { randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AppError } from '../../../../app/errors';
import { syncDirSync } from '../../pool/atomicWrite';
import type { RespBuilder } from '../../resp/respBuilder';

/**
 * An export's output: RESP `RESTORE key ttl payload REPLACE` commands (what `cacheboard load
 * --format resp` and `redis-cli --pipe` take), written to a temp file beside `--out` and renamed
 * over it once the run is done, so the file is never seen half written. The ttl is relative:
 * the milliseconds the key had left when it was exported (0: no TTL), so a loaded key lives as
 * long as it had left, counted from the load.
 *
 * Writes are serialized; `bytes` counts what is written, which a checkpoint records with the
 * shards' cursors so a resumed export cuts the temp file back to it and appends.
 */
export class ExportFile {
  bytes: number;
  private chain: Promise<void> = Promise.resolve();

  private constructor(
    readonly out: string,
    readonly tmp: string,
    private readonly fh: FileHandle,
    bytes: number,
  ) {
    this.bytes = bytes;
  }

  /** A new export to `out`, or (resume) the temp file of a cut one, cut back to `bytes`. */
  static async open(out: string, resume?: { tmp: string; bytes: number }): Promise<ExportFile> {
    const path = resolve(out);
    refuseOddTarget(path);
    if (resume !== undefined) {
      let fh: FileHandle;
      try {
        fh = await open(resume.tmp, 'r+');
      } catch {
        throw new AppError('NOT_FOUND', `The cut export's partial file ${resume.tmp} is gone; start the export again`, 'resume');
      }
      await fh.truncate(resume.bytes);
      return new ExportFile(path, resume.tmp, fh, resume.bytes);
    }
    const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.part`);
    try {
      return new ExportFile(path, tmp, await open(tmp, 'wx', 0o600), 0);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new AppError('VALIDATION', `--out ${path}: the folder ${dirname(path)} does not exist`, 'out');
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
        throw new AppError('VALIDATION', `--out ${path}: the folder ${dirname(path)} cannot be written (${code})`, 'out');
      throw e;
    }
  }

  /** Append one key's RESTORE to `b` (a page's worth is written at once). */
  static restore(b: RespBuilder, key: Buffer, pttl: number, payload: Buffer): void {
    b.command(5)
      .arg('RESTORE')
      .argBytes(key, 0, key.length)
      .argNumber(pttl > 0 ? pttl : 0)
      .argBytes(payload, 0, payload.length)
      .arg('REPLACE');
  }

  write(chunk: Buffer): Promise<void> {
    const next = this.chain.then(async () => {
      let at = 0;
      while (at < chunk.length) {
        const { bytesWritten } = await this.fh.write(chunk, at, chunk.length - at, this.bytes + at);
        at += bytesWritten;
      }
      this.bytes += chunk.length;
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Flush, close and rename over `out` (refused if it became a link or a directory meanwhile). */
  async finish(): Promise<void> {
    await this.chain;
    await this.fh.sync();
    await this.fh.close();
    refuseOddTarget(this.out);
    await rename(this.tmp, this.out);
    syncDirSync(dirname(this.out));
  }

  /** Close, keeping the temp file for a resume. */
  async close(): Promise<void> {
    await this.chain;
    await this.fh.sync().catch(() => undefined);
    await this.fh.close().catch(() => undefined);
  }

  /** Close and remove the temp file (a failed export that will not be resumed). */
  async discard(): Promise<void> {
    await this.close();
    await rm(this.tmp, { force: true });
  }
}

/** --out must be a file name: never a symlink (it could point anywhere) or a directory. */
function refuseOddTarget(path: string): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  if (st.isSymbolicLink())
    throw new AppError('VALIDATION', `--out ${path} is a symbolic link; give the path of a regular file (the export replaces it whole)`, 'out');
  if (st.isDirectory()) throw new AppError('VALIDATION', `--out ${path} is a directory; give a file name, e.g. ${join(path, 'keys.resp')}`, 'out');
  if (!st.isFile()) throw new AppError('VALIDATION', `--out ${path} is not a regular file`, 'out');
}
