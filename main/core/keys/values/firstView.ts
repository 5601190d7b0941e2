import { ReadPage, type KeyMeta, type ReadResult } from '../../../../app/schemas/keys';
import type { KeyType } from '../../../../app/schemas/sampling';
import { keyMeta } from './keyMeta';
import { readPage } from './readPage';
import type { ValueClient } from './valueClient';
import { missingVectorCommands } from './vectorSet';

/** The page a key opens on: a string's first 256 KB, a collection's first page from the head, each with the contract's defaults. */
export function firstPage(type: Exclude<KeyType, 'other'>): ReadPage {
  return ReadPage.parse({ type });
}

/** A vector set's first sample, or none where the server lacks its commands (the metadata speaks for it then). */
async function firstVectorPage(client: ValueClient, key: Buffer): Promise<ReadResult | null> {
  if ((await missingVectorCommands(client)).length > 0) return null;
  return readPage(client, key, ReadPage.parse({ type: 'vectorset' }));
}

/** A key's metadata and its first page (none for a missing key or a module type, whose value only DUMP reads). */
export async function firstView(client: ValueClient, key: Buffer): Promise<{ meta: KeyMeta; page: ReadResult | null }> {
  const meta = await keyMeta(client, key);
  if (meta.type === 'other' && meta.moduleType === 'vectorset') return { meta, page: await firstVectorPage(client, key) };
  if (meta.type === null || meta.type === 'other') return { meta, page: null };
  return { meta, page: await readPage(client, key, firstPage(meta.type)) };
}
