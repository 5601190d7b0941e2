import type { Cluster, Redis } from 'ioredis';
import { readRefusal, triedCommand, type Refusal } from '../redis/refusal';

/**
 * Whether a server has a command, asked with COMMAND INFO (a name the server does not know
 * answers nil), never read from a version string: Valkey, forks and managed services add,
 * rename or hide commands whatever version they report. A refused COMMAND (an ACL) counts as
 * "no": a page then keeps to what every server has.
 *
 * Answers are kept per client for a minute, so a page's reads do not each ask again, and a
 * server upgraded in place (a failover to a newer replica) is seen soon after.
 */
const KEEP_MS = 60_000;

/**
 * COMMAND INFO of one name read as "the server has it": an entry (an array) is there; nil, or
 * anything else (an error over a raw connection), is not. Every transport reads it so.
 */
export function commandInfoHas(reply: unknown): boolean {
  return Array.isArray(reply) && Array.isArray(reply[0]);
}

/**
 * The command that marks hash-field expiration (Redis 7.4+, Valkey 9), which comes with all of
 * HTTL, HPTTL, HPEXPIRETIME, HEXPIRE and HPERSIST: asked of ioredis clients here and of the
 * sampler's raw pipes (sampling/shards.ts), so both decide the one way.
 */
export const FIELD_TTLS_COMMAND = 'HPEXPIRETIME';
const known = new WeakMap<Redis | Cluster, Map<string, { at: number; has: Promise<boolean> }>>();

export function hasCommand(client: Redis | Cluster, name: string): Promise<boolean> {
  let byName = known.get(client);
  if (byName === undefined) {
    byName = new Map();
    known.set(client, byName);
  }
  const key = name.toLowerCase();
  const hit = byName.get(key);
  if (hit !== undefined && Date.now() - hit.at < KEEP_MS) return hit.has;
  const has = client.call('COMMAND', 'INFO', key).then(commandInfoHas, () => false);
  byName.set(key, { at: Date.now(), has });
  return has;
}

/** Hash-field expiration (Redis 7.4+, Valkey 9): HTTL, HPEXPIRETIME, HEXPIRE, HPERSIST. */
export function hasFieldTtls(client: Redis | Cluster): Promise<boolean> {
  return hasCommand(client, FIELD_TTLS_COMMAND);
}

const whoami = new WeakMap<Redis | Cluster, Promise<string | undefined>>();
const allowed = new WeakMap<Redis | Cluster, Map<string, { at: number; may: Promise<boolean> }>>();

/** The ACL user this client signed in as (ACL WHOAMI, Redis 6+); undefined where there is no ACL. */
function userOf(client: Redis | Cluster): Promise<string | undefined> {
  let user = whoami.get(client);
  if (user === undefined) {
    user = client.call('ACL', 'WHOAMI').then(
      (r) => (typeof r === 'string' ? r : Buffer.isBuffer(r) ? r.toString() : undefined),
      () => undefined,
    );
    whoami.set(client, user);
  }
  return user;
}

/**
 * Whether this client's user may run `args` (a whole command with its arguments: DRYRUN checks
 * arity, keys and channels too). ACL DRYRUN answers for the user where the server has it (7.0+)
 * and the user may ask it (it is @admin, so a restricted user usually may not); otherwise COMMAND
 * INFO tells whether the command exists at all, which is what a `rename-command X ""` takes away.
 * A user refused DRYRUN itself cannot learn its rights beforehand: the first refusal, remembered
 * for the profile ({@link RefusalMemory}), answers from then on.
 */
export function mayRun(client: Redis | Cluster, args: readonly string[], profile?: string): Promise<boolean> {
  if (profile !== undefined && refusals.refused(profile, triedCommand(args)) !== undefined) return Promise.resolve(false);
  let byArgs = allowed.get(client);
  if (byArgs === undefined) {
    byArgs = new Map();
    allowed.set(client, byArgs);
  }
  const key = args.join(' ').toLowerCase();
  const hit = byArgs.get(key);
  if (hit !== undefined && Date.now() - hit.at < KEEP_MS) return hit.may;
  const may = dryRun(client, args).then((answer) => answer ?? hasCommand(client, args[0] ?? ''));
  byArgs.set(key, { at: Date.now(), may });
  return may;
}

/** ACL DRYRUN's answer: OK (true), the reason it would be refused (false), or undefined when DRYRUN is not there for us. */
async function dryRun(client: Redis | Cluster, args: readonly string[]): Promise<boolean | undefined> {
  const user = await userOf(client);
  if (user === undefined) return undefined;
  try {
    const reply = (await client.call('ACL', 'DRYRUN', user, ...args)) as unknown;
    return String(reply) === 'OK';
  } catch (err) {
    // "Command 'config' not found": renamed away. Anything else (NOPERM for DRYRUN, unknown
    // subcommand before 7.0, a wrong arity) says nothing about the command itself.
    return /Command '[^']*' not found/i.test(err instanceof Error ? err.message : '') ? false : undefined;
  }
}

/**
 * The first refusal of each command, per profile, so that a page refused once says so at once
 * the next time instead of asking again, and a page can list what its profile lacks. Forgotten
 * with the profile (it was edited or removed: another user, another server).
 */
export class RefusalMemory {
  private readonly byProfile = new Map<string, Map<string, Refusal>>();

  /** The refusal in `err` (remembered when it is the first of its command), or undefined for any other error. */
  note(profile: string, err: unknown, tried?: readonly string[]): Refusal | undefined {
    const refusal = readRefusal(err, tried);
    if (refusal === undefined) return undefined;
    let seen = this.byProfile.get(profile);
    if (seen === undefined) {
      seen = new Map();
      this.byProfile.set(profile, seen);
    }
    if (!seen.has(refusal.command)) seen.set(refusal.command, refusal);
    return refusal;
  }

  /** Whether `command` ("CONFIG GET", or "CONFIG" for all of it) was refused on this profile. */
  refused(profile: string, command: string): Refusal | undefined {
    const seen = this.byProfile.get(profile);
    const name = command.toUpperCase();
    return seen?.get(name) ?? seen?.get(name.split(' ')[0] ?? name);
  }

  all(profile: string): Refusal[] {
    return [...(this.byProfile.get(profile)?.values() ?? [])];
  }

  forget(profile: string): void {
    this.byProfile.delete(profile);
  }
}

/** One memory for the process: the pool, the pages' cores and the CLI read the same. */
export const refusals = new RefusalMemory();

/**
 * Whether this connection's user may run `args`, asked without running it: inside MULTI, Redis
 * checks a command's existence, arity and ACL rights when it queues it (NOPERM or "unknown
 * command" then, QUEUED otherwise), and DISCARD drops the queue, so nothing executes. For the
 * commands no harmless call can try (FLUSHDB, SWAPDB, CLIENT KILL) where ACL DRYRUN is itself
 * refused. `client` must be a connection of the caller's own (a load's control connection): on a
 * shared one other callers' commands would land in the transaction.
 */
export async function refusedWhenQueued(client: Redis, args: readonly string[]): Promise<Refusal | undefined> {
  // ACL DRYRUN first where this user may ask it: a write command queued under CLIENT PAUSE WRITE
  // waits for the pause to end, so MULTI is kept for the users DRYRUN cannot answer for.
  if ((await dryRun(client, args)) === true) return undefined;
  await client.call('MULTI');
  try {
    await client.call(args[0] ?? '', ...args.slice(1));
    return undefined;
  } catch (err) {
    const refusal = readRefusal(err, args);
    if (refusal === undefined) throw err;
    return refusal;
  } finally {
    await client.call('DISCARD');
  }
}
