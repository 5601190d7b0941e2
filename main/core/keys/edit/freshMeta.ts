import type { KeyMeta } from '../../../../app/schemas/keys';
import { keyMeta } from '../values/keyMeta';
import { clientOf } from '../values/valueClient';
import type { EditClient } from './runScript';

/** Reads a key's metadata after an edit, so the view shows the key as the edit left it. */
export type MetaReader = (key: Buffer) => Promise<KeyMeta>;

/** keys.get's reader on the edit's own client: the view shows the key exactly as keys.get would. */
export function fullMetaReader(client: EditClient): MetaReader {
  const reader = clientOf(client);
  return (key) => keyMeta(reader, key);
}
