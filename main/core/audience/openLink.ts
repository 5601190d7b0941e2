import type { RawConnection } from '../resp/rawConnection';
import { toAppError, type ErrorContext } from '../pool/redisErrors';
import { RespPipe } from '../resp/respPipe';
import type { RawTarget } from '../resp/rawTarget';
import { AudienceLink, CommandRefused } from './audienceLink';

export function linkOver(conn: RawConnection, ctx: ErrorContext, closedNote: string): AudienceLink {
  return new AudienceLink(new RespPipe(conn, ctx, closedNote), conn.socket);
}

/** Opens a connection for one short read-only job (discovery, checking terms) and always closes it. */
export async function withLink<T>(c: RawTarget, fn: (link: AudienceLink) => Promise<T>): Promise<T> {
  const conn = await c.connect();
  try {
    return await fn(linkOver(conn, c.errorContext, 'while reading the audience layout; nothing was changed.'));
  } catch (e) {
    // An error reply (NOPERM on SCAN…) becomes the AppError the caller shows, naming the server.
    throw e instanceof CommandRefused ? toAppError(new Error(e.reply), c.errorContext) : e;
  } finally {
    await conn.close();
  }
}
