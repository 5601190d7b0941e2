import type { Redis } from 'ioredis';
import { AppError } from '../../../../app/errors';
import { EditOp, type KeyMeta, type KeyRef } from '../../../../app/schemas/keys';
import { basicMetaReader } from './freshMeta';
import { runEdit } from './runEdit';

/** Tests only: base64 of text or bytes, as the contract carries them. */
export const b64 = (v: string | Buffer): string => Buffer.from(v).toString('base64');

/** Tests only: an edit as the contract would hand it over (defaults applied), run on `client`. */
export function editOn(client: Redis): (key: string | Buffer, op: Record<string, unknown>) => Promise<{ key: KeyRef; meta: KeyMeta }> {
  return (key, op) =>
    runEdit({ client, cluster: false, errorContext: { label: 'test server' } }, Buffer.from(key), EditOp.parse(op), basicMetaReader(client));
}

/** Tests only: the AppError a promise is rejected with (fails the test when it resolves). */
export async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected a refusal, got a result');
}
