import type { RawConnection } from '../resp/rawConnection';
import { RespPipe } from '../resp/respPipe';
import type { AudienceLink } from './audienceLink';
import { encodeCommand } from '../resp/encodeCommand';

/**
 * Deletes a trial's scratch keys after it ended, however it ended. Every run deletes its
 * own, so this matters after a failure half-way (a store done, its DEL never sent); when
 * the trial's connection is what failed, a fresh one does it. Best effort: a user that may
 * not write there (NOPERM) never wrote anything, and the keys carry a TTL anyway.
 */
export async function removeScratch(names: string[], link: AudienceLink | null, connect: () => Promise<RawConnection>): Promise<void> {
  if (names.length === 0) return;
  const del = ['UNLINK', ...names];
  try {
    if (link === null) throw new Error('no connection');
    await link.send([del]);
  } catch {
    let conn: RawConnection | null = null;
    try {
      conn = await connect();
      await new RespPipe(conn, {}).send(encodeCommand(del), 1);
    } catch {
      // Unreachable now: the keys' TTL removes them.
    } finally {
      await conn?.close();
    }
  }
}
