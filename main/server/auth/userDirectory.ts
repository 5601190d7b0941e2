import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { readUsers, userStamp, type UserRecord } from './users';

export type KnownUser = UserRecord & { stamp: string };

/** The users of a running server, following the users file as `cacheboard user` changes it. */
export interface UserDirectory {
  /** A user's current record; undefined when removed (or the file is unreadable: nobody signs in then). */
  find(name: string): KnownUser | undefined;
  /** How many users the file names now (checked as find is). */
  size(): number;
  /** Called after the file changed, so sessions issued under the old records can be revoked at once. */
  onChange(cb: () => void): void;
  close(): void;
}

export interface UserDirectoryOptions {
  /** On use, the file is stat'ed at most this often: the bound on how long a missed watch event leaves access open. */
  recheckMs?: number;
  now?: () => number;
  log?: (message: string) => void;
}

/**
 * The users file, re-read only when it changed. `cacheboard user` writes it from another
 * process by renaming a temp file over it (a new inode), so a watch on the file itself would
 * follow the old inode: the directory is watched instead. Watch events can be missed (network
 * and some container filesystems send none), so each use also compares the file's stat
 * (inode, size, mtime, ctime in ns) with the one last read, at most once per `recheckMs`.
 */
export function watchUsers(file: string, o: UserDirectoryOptions = {}): UserDirectory {
  const recheckMs = o.recheckMs ?? 250;
  const now = o.now ?? Date.now;
  const log = o.log ?? ((m: string) => console.error(m));
  const listeners: (() => void)[] = [];
  let byName = new Map<string, KnownUser>();
  let signature: string | undefined;
  let checkedAt = -Infinity;

  const read = (): Map<string, KnownUser> => {
    try {
      return new Map(readUsers(file).map((u) => [u.name, { ...u, stamp: userStamp(u) }]));
    } catch (e) {
      // Fail closed: a file we cannot read names nobody, so no session outlives a broken edit.
      log(`${(e as Error).message}; nobody can sign in until it is fixed`);
      return new Map();
    }
  };

  const refresh = (force: boolean) => {
    const t = now();
    if (!force && t - checkedAt < recheckMs) return;
    checkedAt = t;
    // Stat before reading: a write in between leaves an older signature, so the next check reads again.
    const s = statSync(file, { bigint: true, throwIfNoEntry: false });
    const sig = s === undefined ? 'missing' : `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
    if (sig === signature) return;
    const first = signature === undefined;
    signature = sig;
    byName = read();
    if (!first) for (const cb of listeners) cb();
  };
  refresh(true);

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), (_event, name) => {
      if (name === null || name === basename(file)) refresh(true);
    });
    // Without a watch (no inotify left, directory gone) the on-use checks still hold.
    watcher.on('error', () => watcher?.close());
    watcher.unref();
  } catch {
    watcher = undefined;
  }

  return {
    find(name) {
      refresh(false);
      return byName.get(name);
    },
    size() {
      refresh(false);
      return byName.size;
    },
    onChange: (cb) => listeners.push(cb),
    close: () => watcher?.close(),
  };
}
