import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../app/errors';

interface Handle {
  fd: number;
  /** Set while the file still has a name: where an open file cannot be unlinked (Windows). */
  path: string | undefined;
}

/** Names left to remove at exit, for the systems that refused to unlink them while open. */
const named = new Set<string>();
let exitHook = false;

function dispose(h: Handle): void {
  try {
    closeSync(h.fd);
  } catch {
    // already closed
  }
  if (h.path !== undefined) {
    rmSync(h.path, { force: true });
    named.delete(h.path);
  }
}

/** A spill file dropped without close() (a load that threw) gives its disk space back when collected. */
const collected = new FinalizationRegistry<Handle>(dispose);

/**
 * Fixed-size blocks in a temporary file that no directory lists: it is
 * unlinked right after it is created, and POSIX keeps an unlinked file until
 * its last descriptor closes, so its space returns to the disk on close(),
 * when it is garbage-collected, or when the process ends, however it ends.
 * Blocks given back are reused, so the file is as large as the most blocks
 * ever held at once. Created on the first write: a small load never touches
 * the disk. Reads and writes are synchronous; a block is tens of kilobytes.
 */
export class SpillFile {
  private handle: Handle | undefined;
  private blocks = 0;
  private readonly free: number[] = [];
  private inUse = 0;

  constructor(
    private readonly dir: string,
    readonly blockBytes: number,
  ) {}

  /** Bytes of blocks in use (the file's size can be larger: freed blocks wait for reuse). */
  get bytesInUse(): number {
    return this.inUse * this.blockBytes;
  }

  /** Writes `bytes` (at most a block) from data at byteOffset into a free block; returns the block's id. */
  write(data: Uint8Array, byteOffset: number, bytes: number): number {
    const fd = this.open();
    const id = this.free.pop() ?? this.blocks++;
    try {
      let done = 0;
      while (done < bytes) done += writeSync(fd, data, byteOffset + done, bytes - done, id * this.blockBytes + done);
    } catch (e) {
      this.free.push(id);
      throw this.failure('write to', e);
    }
    this.inUse++;
    return id;
  }

  /** Reads `bytes` of block `id` into data at byteOffset. */
  read(id: number, data: Uint8Array, byteOffset: number, bytes: number): void {
    const fd = this.open();
    let done = 0;
    try {
      while (done < bytes) {
        const n = readSync(fd, data, byteOffset + done, bytes - done, id * this.blockBytes + done);
        if (n === 0) throw new Error(`block ${id} is short`);
        done += n;
      }
    } catch (e) {
      throw this.failure('read from', e);
    }
  }

  /** The block may be overwritten by a later write. */
  release(id: number): void {
    this.free.push(id);
    this.inUse--;
  }

  /** Gives the disk space back now; a later write starts a new file. */
  close(): void {
    if (this.handle === undefined) return;
    collected.unregister(this);
    dispose(this.handle);
    this.handle = undefined;
    this.blocks = 0;
    this.free.length = 0;
    this.inUse = 0;
  }

  private open(): number {
    if (this.handle !== undefined) return this.handle.fd;
    const path = join(this.dir, `cacheboard-keys-${process.pid}-${randomUUID()}`);
    let fd: number;
    try {
      fd = openSync(path, 'wx+', 0o600);
    } catch (e) {
      throw this.failure('create a file in', e);
    }
    const handle: Handle = { fd, path };
    try {
      unlinkSync(path);
      handle.path = undefined;
    } catch {
      named.add(path);
      if (!exitHook) {
        exitHook = true;
        process.once('exit', () => named.forEach((p) => rmSync(p, { force: true })));
      }
    }
    this.handle = handle;
    collected.register(this, handle, this);
    return fd;
  }

  private failure(action: string, e: unknown): AppError {
    const why = e instanceof Error ? e.message : String(e);
    return new AppError(
      'INTERNAL',
      `Could not ${action} ${this.dir} to count the keys written (${why}). The count needs ~8 bytes a key there: point TMPDIR at a writable directory with room`,
    );
  }
}
