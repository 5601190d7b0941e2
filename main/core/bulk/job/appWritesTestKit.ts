import type { Redis } from 'ioredis';

/*
 * TEST ONLY (vitest and Playwright alike: no test runner imported here): an
 * application's writes, and whether the server holds a client's command back
 * under CLIENT PAUSE WRITE, for the tests that land another client's write in
 * the middle of a load (midLoadTestKit.ts, e2e/heldWrites.ts).
 */

/** Whether a CLIENT LIST line matching `which` is postponed by a pause (its blocked flag). */
export async function postponed(admin: Redis, which: RegExp): Promise<boolean> {
  const lines = String(await admin.client('LIST'))
    .split('\n')
    .filter((l) => which.test(l));
  return lines.some((l) => /(?:^| )flags=\S*b/.test(l));
}

/** A load's control connection (cacheboard:bulk:<job>:db<target>:staging<s>): it claims staging after it began counting the live DB's writes. */
export const CLAIMING = / name=cacheboard:bulk:\S+:staging\d+ /;
/** A load's data connection (cacheboard:bulk:<job>:db<target>), writing staging. */
export const LOADING = / name=cacheboard:bulk:\S+:db\d+ /;

/** The CLIENT LIST line of client `id`. */
export const clientId = (id: number): RegExp => new RegExp(`(?:^| )id=${id}(?: |$)`);

/** `count` string keys `${prefix}<i>` in one MULTI: one write each, as an application's would be. */
export function setKeys(prefix: string, count: number): (client: Redis) => Promise<unknown> {
  return (client) => {
    const tx = client.multi();
    for (let i = 0; i < count; i++) tx.set(`${prefix}${i}`, `app-${i}`);
    return tx.exec();
  };
}
