import { ReadPage, type KeyMeta, type ReadResult } from '../../../../app/schemas/keys';
import type { KeyType } from '../../../../app/schemas/sampling';
import { keyMeta } from './keyMeta';
import { readPage } from './readPage';
import type { ValueClient } from './valueClient';

/** The page a key opens on: a string's first 256 KB, a collection's first page from the head, each with the contract's defaults. */
export function firstPage(type: Exclude<KeyType, 'other'>): ReadPage {
  return ReadPage.parse({ type });
}

/** A key's metadata and its first page (none for a missing key or a module type, whose value only DUMP reads). */
export async function firstView(client: ValueClient, key: Buffer): Promise<{ meta: KeyMeta; page: ReadResult | null }> {
  const meta = await keyMeta(client, key);
  if (meta.type === null || meta.type === 'other') return { meta, page: null };
  return { meta, page: await readPage(client, key, firstPage(meta.type)) };
}
