import type { CallInput, CallOutput } from '../../../../app/contract';
import type { ReadResult } from '../../../../app/schemas/keys';
import type { Bridge } from '../../../../app/bridge';
import { AppError } from '../../../../app/errors';
import type { Edit } from './useEdit';

export interface Where {
  profileId: string;
  db: number;
  /** The key's bytes, base64. */
  key: string;
}

/** What every type's view gets from the panel. */
export interface ViewProps {
  where: Where;
  canEdit: boolean;
  edit: Edit;
  /** Bumped after each edit and on Reload: the view reads its first page again. */
  version: number;
}

type Page = CallInput<'keys.read'>['page'];

/** One page of the value, of the type the view expects (a key that changed type since says so). */
export async function readPage<T extends ReadResult['type']>(
  bridge: Bridge,
  where: Where,
  page: Page & { type: T },
): Promise<Extract<CallOutput<'keys.read'>, { type: T }>> {
  const r = await bridge.invoke('keys.read', { ...where, page });
  if (r.type !== page.type) throw new AppError('CONFLICT', `the key is now a ${r.type}, not a ${page.type}: reload it`);
  return r as Extract<CallOutput<'keys.read'>, { type: T }>;
}
