import type { Redis } from 'ioredis';
import { expect } from 'vitest';
import { adminClient, eventually, type RedisProcess } from '../../../../testing/redis';
import { clientId, postponed } from './appWritesTestKit';

/*
 * TEST ONLY: another client's writes landing in the middle of a load, on any
 * machine however slow or loaded. The server's writes are held (CLIENT PAUSE
 * WRITE: the load's pipe waits, nothing fails), the other client's write is
 * sent and seen postponed by the server, then the pause is lifted: the
 * server runs the postponed write at once, while the load still has most of
 * its commands ahead of it.
 */

export interface MidLoadWriter {
  /**
   * Call from the load's 'loading' phase event (before its first data
   * command): the PAUSE leaves at once on a connection already open.
   */
  start(): void;
  /** Resolves once the write is done and the pause lifted; rejects if the write never got postponed. */
  done(): Promise<void>;
}

/** Two clients opened now (one on DB `db` for the write), ready to hold the server's writes and write meanwhile. */
export async function midLoadWriter(redis: RedisProcess, db: number, write: (client: Redis) => Promise<unknown>): Promise<MidLoadWriter> {
  const admin = await adminClient(redis);
  const writer = await adminClient(redis, { db });
  let run: Promise<void> | undefined;
  return {
    start() {
      if (run !== undefined) return;
      const paused = admin.client('PAUSE', '30000', 'WRITE');
      run = paused.then(
        () => writeThenUnpause(admin, writer, write),
        async (err: unknown) => {
          await admin.client('UNPAUSE');
          throw err;
        },
      );
    },
    async done() {
      expect(run, 'the load never reached its loading phase').toBeDefined();
      await run;
    },
  };
}

/**
 * For a load in another process (the CLI, `serve`): with the server's writes
 * already held (CLIENT PAUSE WRITE before the load starts), waits until the
 * load's own write waits on the pause on its connection matching `load`
 * (CLAIMING, LOADING), then has `write` run on a client of DB `db` and lifts
 * the pause once that write waits too.
 */
export async function writeWhenPostponed(redis: RedisProcess, load: RegExp, db: number, write: (client: Redis) => Promise<unknown>): Promise<void> {
  const admin = await adminClient(redis);
  const writer = await adminClient(redis, { db });
  try {
    expect(await eventually(() => postponed(admin, load), 60_000, 5)).toBe(true);
  } catch (err) {
    await admin.client('UNPAUSE');
    throw err;
  }
  await writeThenUnpause(admin, writer, write);
}

/** Under a pause already in force: `write` sent, seen postponed by the server, then the pause lifted (also on failure). */
async function writeThenUnpause(admin: Redis, writer: Redis, write: (client: Redis) => Promise<unknown>): Promise<void> {
  try {
    const id = Number(await writer.client('ID'));
    const written = write(writer);
    expect(await eventually(() => postponed(admin, clientId(id)), 10_000, 5)).toBe(true);
    await admin.client('UNPAUSE');
    await written;
  } finally {
    await admin.client('UNPAUSE');
  }
}
