import type { Redis } from 'ioredis';
import { expect } from '@playwright/test';
import { clientId, postponed } from '../main/core/bulk/job/appWritesTestKit';

export { CLAIMING, LOADING } from '../main/core/bulk/job/appWritesTestKit';

/*
 * Another client's writes landing while a load started from the page runs,
 * however slow the machine: the server holds every write (CLIENT PAUSE
 * WRITE: the load waits, nothing fails), the other client's write is sent
 * and seen postponed by the server, then the pause is lifted.
 */

/** Holds the server's writes: call before starting the load, then writeDuringPause. */
export async function holdWrites(admin: Redis): Promise<void> {
  await admin.client('PAUSE', '30000', 'WRITE');
}

/**
 * Once the load's own write waits on the pause (on its connection matching
 * `load`: CLAIMING or LOADING), `write` runs on a client of DB `db`; the
 * pause is lifted once that write waits too, and both go on.
 */
export async function writeDuringPause(admin: Redis, load: RegExp, db: number, write: (client: Redis) => Promise<unknown>): Promise<void> {
  const writer = admin.duplicate({ db });
  try {
    await expect.poll(() => postponed(admin, load), { timeout: 30_000 }).toBe(true);
    const id = Number(await writer.client('ID'));
    const written = write(writer);
    await expect.poll(() => postponed(admin, clientId(id)), { timeout: 10_000 }).toBe(true);
    await admin.client('UNPAUSE');
    await written;
  } finally {
    await admin.client('UNPAUSE');
    writer.disconnect();
  }
}
