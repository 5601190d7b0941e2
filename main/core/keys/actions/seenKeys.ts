import { closeSync, existsSync, openSync, readSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { hashKey, lastHash } from '../../resp/keyHash';
import { KeyHashSet } from '../../resp/keyHashSet';

/**
 * The keys a real run has counted, as 64-bit hashes (keyHash.ts) appended to `<runId>.seen`
 * once each page's actions are answered: 8 bytes a key, never a name. Read back only when a
 * shard's SCAN must start over on a new server process (a restart, a failover): keys the run
 * counted before may be there again (a restart that reloaded an older RDB brings deleted keys
 * back) and are acted on again, but not counted twice.
 */
export class SeenKeysFile {
  private fd: number | null = null;
  /** Its length: a checkpoint records it, so a resume cuts back what was written after (keys whose counts died with the process). */
  bytes: number;

  /** `from`: a resume's recorded length (the file is cut back to it); absent: a new run, a new file. */
  constructor(
    readonly path: string,
    from?: number,
  ) {
    this.bytes = from ?? 0;
    if (from === undefined) rmSync(path, { force: true });
    else if (existsSync(path) && statSync(path).size > from) truncateSync(path, from);
  }

  append(keys: readonly Buffer[]): void {
    if (keys.length === 0) return;
    this.fd ??= openSync(this.path, 'a', 0o600);
    const out = Buffer.allocUnsafe(keys.length * 8);
    keys.forEach((k, i) => {
      hashKey(k, 0, k.length);
      out.writeUInt32LE(lastHash.hi, i * 8);
      out.writeUInt32LE(lastHash.lo, i * 8 + 4);
    });
    let at = 0;
    while (at < out.length) at += writeSync(this.fd, out, at, out.length - at);
    this.bytes += out.length;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** The keys counted so far, as a set (16 bytes a key at most); empty when there is no file. */
  load(): KeyHashSet {
    const set = new KeyHashSet();
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return set;
    }
    try {
      const buf = Buffer.allocUnsafe(64 * 1024);
      let carry = 0;
      for (;;) {
        const n = readSync(fd, buf, carry, buf.length - carry, null);
        const end = carry + n;
        const whole = end - (end % 8);
        for (let i = 0; i < whole; i += 8) set.addHash(buf.readUInt32LE(i), buf.readUInt32LE(i + 4));
        if (n === 0) break;
        // A torn last record (a process killed mid-write) is left out: it counted nothing yet.
        carry = end - whole;
        buf.copy(buf, 0, whole, end);
      }
    } finally {
      closeSync(fd);
    }
    return set;
  }
}
