import type { KeyIndex } from './keyIndex';

/** One key a change touched, and whether it exists now (read back from the server after the change). */
export interface KeyChange {
  key: Buffer;
  exists: boolean;
}

/** What applying changes did to one index. */
export interface ChangeResult {
  added: number;
  removed: number;
  /** The index could not follow (its names went over budget): its counts may be off until a re-index. */
  unfollowed: boolean;
}

/**
 * The id of `name` in the index, if held: the name is looked for in its own folder only (its
 * leaves, or the keys past the folders' cap), so one lookup costs that folder, not the keyspace.
 */
export function findId(index: KeyIndex, name: Buffer): number | undefined {
  const store = index.store;
  if (store === null) return undefined;
  const { folder, depth } = index.deepest(name);
  const deeper = name.indexOf(index.separator, depth) >= 0;
  const ids = deeper ? folder.deeper : folder.leaves;
  if (ids === null) return undefined;
  for (const id of ids) if (store.name(id).equals(name)) return id;
  return undefined;
}

/**
 * Brings the index in line with keys a key edit or a bulk action changed, without a scan: a key
 * that exists now and is not held is added, one that is gone and held is taken out. An index
 * without its names cannot tell whether a key is already counted, so it only says so.
 */
export function applyChanges(index: KeyIndex, changes: readonly KeyChange[]): ChangeResult {
  if (index.store === null) return { added: 0, removed: 0, unfollowed: changes.length > 0 };
  let added = 0;
  const gone: number[] = [];
  for (const { key, exists } of changes) {
    const id = findId(index, key);
    if (exists && id === undefined) {
      index.add(key);
      added++;
    } else if (!exists && id !== undefined && !gone.includes(id)) {
      gone.push(id);
    }
  }
  index.removeMany(gone);
  if (added > 0) index.changes++;
  // Past the budget the names go now (the build does this between SCAN pages): the counts stay.
  if (index.overBudget) index.dropNames();
  return { added, removed: gone.length, unfollowed: false };
}

/**
 * The keys one edit changed, as it left them: its key (the new name, for a rename) exists or not
 * as its fresh metadata says (an element removed may have emptied and so removed the key), and
 * a rename's old name is gone.
 */
export function editedKeys(key: Buffer, op: string, after: Buffer, existsAfter: boolean): KeyChange[] {
  const changes: KeyChange[] = [{ key: after, exists: existsAfter }];
  if (op === 'rename' && !after.equals(key)) changes.push({ key, exists: false });
  return changes;
}
