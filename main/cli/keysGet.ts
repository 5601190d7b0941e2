import { AppError } from '../../app/errors';

/** `cacheboard keys get KEY`: built on the keys-values branch; refused plainly until then. */
export function keysGet(_argv: string[], _env: NodeJS.ProcessEnv): Promise<number> {
  return Promise.reject(new AppError('UNSUPPORTED', '`keys get` is not built in this version yet'));
}
