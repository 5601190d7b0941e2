import type { Redis } from 'ioredis';
import { refusedWhenQueued } from '../../pool/commandSupport';
import { readRefusal } from '../../redis/refusal';
import type { LoadLog } from './loadLog';
import type { ServerFacts } from './serverFacts';

/*
 * What a load on a managed service or as a restricted ACL user does without: each protection it
 * could not apply goes into the report's restrictions with the command that was missing, so the
 * text, --json, the page and the audit record all name it (LoadLog.unprotected).
 */

export const NO_MEMORY_PREFLIGHT =
  'no memory pre-flight: used memory, maxmemory and the eviction policy are unknown, so whether the input fits was not checked';
export const NO_EVICTION_WATCH = 'evictions are not watched: the load does not stop at the first key Redis evicts, and no eviction count is reported';
export const NO_REPLICA_LAG = 'replica lag not available: INFO refused, so no replica is watched during the load';
export const NO_SAVES_OFF = 'automatic saves were not turned off during the load, so a save may fork while it runs';
export const NO_CANCEL_KILL = 'a cancel or a failure cannot drop the commands already sent: the server runs them to the end';

/** The protections a refused INFO, CONFIG or CLIENT KILL leaves out, said before the load starts. */
export async function noteRefusedAtStart(redis: Redis, facts: ServerFacts, log: LoadLog): Promise<void> {
  if (facts.infoRefused !== undefined) {
    log.unprotected('INFO', NO_MEMORY_PREFLIGHT);
    log.unprotected('INFO', NO_EVICTION_WATCH);
    log.unprotected('INFO', NO_REPLICA_LAG);
  }
  // The pre-flight's warning already quotes the server.
  if (facts.configRefused !== undefined) log.unprotected('CONFIG', NO_SAVES_OFF, false);
  // ServerPipe.stop() kills the data connection so that nothing of a stopped load runs on; asked, not tried.
  const kill = await refusedWhenQueued(redis, ['CLIENT', 'KILL', 'ID', '0']);
  if (kill !== undefined) log.unprotected('CLIENT KILL', NO_CANCEL_KILL);
}

/**
 * When `err` is the server refusing `tried` (as a managed service or an ACL does), records what
 * that left out and returns the server's words for the warning; undefined for any other error.
 */
export function unprotectedBy(log: LoadLog, err: unknown, tried: readonly string[], effect: string): string | undefined {
  const refusal = readRefusal(err, tried);
  if (refusal === undefined) return undefined;
  log.unprotected(refusal.command, effect, false);
  return refusal.message;
}
