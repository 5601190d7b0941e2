import { randomBytes } from 'node:crypto';
import { constants, createWriteStream, lstatSync, mkdirSync, openSync, readdirSync, unlinkSync, type WriteStream } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../../../app/errors';

/**
 * Download files of replies that passed the display bound: under one directory, each owned by
 * the user whose run made it, bounded per user in count and bytes (a user's new file removes
 * only that user's oldest: one user's many cut replies never remove another's download), in
 * age, and, for the whole server, in count and bytes (where the user holding the most gives way).
 */
export interface ReplyFileWriter {
  readonly id: string;
  write(text: string | Buffer): void;
  /** Flush and close; resolves to the file's size. */
  finish(): Promise<number>;
  /** Remove a file that will not be finished. */
  discard(): void;
  /** The disk is behind: wait for drained() before writing more (the reader pauses its socket). */
  readonly needsDrain: boolean;
  drained(): Promise<void>;
}

export interface ReplyFile {
  total: number;
  /** Up to `length` bytes from `offset`. */
  read(offset: number, length: number): Promise<Buffer>;
  close(): void;
}

export interface ReplyFileLimits {
  /** Files per user. */
  files: number;
  /** Bytes of one user's files together; one file stops growing there, with a last line saying so. */
  bytes: number;
  /** Files and bytes of every user's files together. */
  totalFiles: number;
  totalBytes: number;
  ageMs: number;
  now: () => number;
}

export const REPLY_FILE_LIMITS: ReplyFileLimits = {
  files: 20,
  bytes: 1024 ** 3,
  totalFiles: 200,
  totalBytes: 4 * 1024 ** 3,
  ageMs: 60 * 60_000,
  now: Date.now,
};

/** Bytes of text queued for the disk before the writer says it needs draining. */
const WRITE_QUEUE_BYTES = 4 * 1024 * 1024;

const ID = /^[A-Za-z0-9_-]{8,64}$/;
/** Our files' names: what a sweep of the directory may remove. */
const FILE_NAME = /^[A-Za-z0-9_-]{24}\.txt$/;

interface Entry {
  id: string;
  owner: string;
  path: string;
  created: number;
  bytes: number;
  done: boolean;
}

function notFound(): AppError {
  // The same words for every case: another user's id must not be told apart from a made-up one.
  return new AppError('NOT_FOUND', 'No such reply download: it may have expired (downloads are kept an hour, 20 a user at most).');
}

export class ReplyFiles {
  private readonly limits: ReplyFileLimits;
  private readonly entries = new Map<string, Entry>();
  private swept = false;

  constructor(
    readonly dir: string,
    limits: Partial<ReplyFileLimits> = {},
  ) {
    this.limits = { ...REPLY_FILE_LIMITS, ...limits };
  }

  create(owner: string): ReplyFileWriter {
    this.checkDir(true);
    this.prune();
    while (this.count((e) => e.owner === owner) >= this.limits.files && this.evictOldest(owner, undefined) !== undefined);
    while (
      this.entries.size >= this.limits.totalFiles &&
      this.evictOldest(
        this.heaviest(() => 1),
        undefined,
      ) !== undefined
    );
    const id = randomBytes(18).toString('base64url');
    const path = join(this.dir, `${id}.txt`);
    // O_EXCL and O_NOFOLLOW: a file or symlink planted at the name is refused, never followed.
    const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    const entry: Entry = { id, owner, path, created: this.limits.now(), bytes: 0, done: false };
    this.entries.set(id, entry);
    // The reader pauses its socket past this much queued text: 16 KiB (the default) would pause it at every write.
    return new FileWriter(entry, createWriteStream(path, { fd, highWaterMark: WRITE_QUEUE_BYTES }), this);
  }

  /** NOT_FOUND for an unknown id, an expired file or another owner's. */
  async open(id: string, owner: string): Promise<ReplyFile> {
    this.prune();
    const entry = ID.test(id) ? this.entries.get(id) : undefined;
    if (entry === undefined || entry.owner !== owner || !entry.done) throw notFound();
    this.checkDir(false);
    const handle = await openFile(entry.path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
      this.remove(entry);
      throw notFound();
    });
    const total = (await handle.stat()).size;
    return {
      total,
      read: async (offset, length) => {
        const buf = Buffer.alloc(Math.max(0, Math.min(length, total - offset)));
        const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
        return buf.subarray(0, bytesRead);
      },
      close: () => void handle.close().catch(() => undefined),
    };
  }

  /** @internal A writer's bytes grew: keep its user's bytes, then the server's, under their bounds, dropping the oldest finished files. */
  grew(entry: Entry, bytes: number): void {
    entry.bytes += bytes;
    const size = (e: Entry): number => e.bytes;
    while (this.sum(size, (e) => e.owner === entry.owner) > this.limits.bytes && this.evictOldest(entry.owner, entry) !== undefined);
    while (this.sum(size, () => true) > this.limits.totalBytes && this.evictOldest(this.heaviest(size), entry) !== undefined);
  }

  /** @internal */
  maxFileBytes(): number {
    return this.limits.bytes;
  }

  /** @internal */
  remove(entry: Entry): void {
    this.entries.delete(entry.id);
    try {
      unlinkSync(entry.path);
    } catch {
      // Already gone.
    }
  }

  /** The oldest of `owner`'s files, finished ones first; never `keep`. */
  private evictOldest(owner: string | undefined, keep: Entry | undefined): Entry | undefined {
    let oldest: Entry | undefined;
    for (const e of this.entries.values()) {
      if (e === keep || e.owner !== owner) continue;
      if (oldest === undefined || (e.done && !oldest.done) || (e.done === oldest.done && e.created < oldest.created)) oldest = e;
    }
    if (oldest !== undefined) this.remove(oldest);
    return oldest;
  }

  /** The user whose files weigh the most by `weight` (count or bytes): the one who gives way when the whole server is full. */
  private heaviest(weight: (e: Entry) => number): string | undefined {
    const by = new Map<string, number>();
    for (const e of this.entries.values()) by.set(e.owner, (by.get(e.owner) ?? 0) + weight(e));
    let top: string | undefined;
    for (const [owner, w] of by) if (top === undefined || w > (by.get(top) ?? 0)) top = owner;
    return top;
  }

  private count(match: (e: Entry) => boolean): number {
    return this.sum(() => 1, match);
  }

  private sum(weight: (e: Entry) => number, match: (e: Entry) => boolean): number {
    let total = 0;
    for (const e of this.entries.values()) if (match(e)) total += weight(e);
    return total;
  }

  private prune(): void {
    const now = this.limits.now();
    for (const e of [...this.entries.values()]) if (e.done && now - e.created > this.limits.ageMs) this.remove(e);
  }

  /**
   * The directory is made 0700 when missing. A symlink there is refused: the files would land
   * wherever it points. The first time, files left by an earlier run are removed: no one owns them now.
   */
  private checkDir(make: boolean): void {
    let st;
    try {
      st = lstatSync(this.dir);
    } catch (err) {
      if (!make || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      st = lstatSync(this.dir);
    }
    if (st.isSymbolicLink()) throw new AppError('INTERNAL', `The reply download folder ${this.dir} is a symbolic link: refused.`);
    if (!st.isDirectory()) throw new AppError('INTERNAL', `The reply download folder ${this.dir} is not a folder.`);
    if (this.swept) return;
    this.swept = true;
    for (const name of readdirSync(this.dir)) {
      if (!FILE_NAME.test(name)) continue;
      try {
        unlinkSync(join(this.dir, name));
      } catch {
        // Gone already, or not ours to remove.
      }
    }
  }
}

class FileWriter implements ReplyFileWriter {
  private error: Error | undefined;
  private truncated = false;
  private bytes = 0;

  constructor(
    private readonly entry: Entry,
    private readonly stream: WriteStream,
    private readonly files: ReplyFiles,
  ) {
    stream.on('error', (err) => {
      this.error = err;
    });
  }

  get id(): string {
    return this.entry.id;
  }

  get needsDrain(): boolean {
    return this.stream.writableNeedDrain && this.error === undefined;
  }

  write(text: string | Buffer): void {
    if (this.truncated || this.error !== undefined) return;
    const size = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
    if (this.bytes + size > this.files.maxFileBytes()) {
      this.truncated = true;
      return;
    }
    this.bytes += size;
    this.stream.write(text);
    this.files.grew(this.entry, size);
  }

  drained(): Promise<void> {
    if (!this.needsDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
      this.stream.on('close', done);
    });
  }

  finish(): Promise<number> {
    if (this.truncated) {
      const note = `\n(… the rest is not in this file: downloads hold at most ${this.files.maxFileBytes()} bytes)\n`;
      this.bytes += Buffer.byteLength(note);
      this.stream.write(note);
    }
    return new Promise((resolve, reject) => {
      this.stream.end((err?: Error | null) => {
        if (err !== null && err !== undefined) this.error ??= err;
        if (this.error !== undefined) {
          this.discard();
          reject(new AppError('INTERNAL', `The reply download could not be written: ${this.error.message}`));
          return;
        }
        this.entry.done = true;
        resolve(this.bytes);
      });
    });
  }

  discard(): void {
    this.stream.destroy();
    this.files.remove(this.entry);
  }
}
