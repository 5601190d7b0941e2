import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import type { ProfileSpec } from '../../../app/schemas/connections';
import { TrialEvent, TrialOptions, type TrialReport } from '../../../app/schemas/trials';
import { specFor } from '../../../testing/profiles';
import type { RedisProcess } from '../../../testing/redis';
import { privateConnector } from './connector';
import { runTrial, type TrialSettings } from './runTrial';
import { SCRATCH_ROOT } from './scratch';
import type { FinalTrialEvent } from './trialJobs';

/** What a caller of trials.start may send, minus the profile: defaults come from the contract. */
export type TrialInput = z.input<typeof TrialOptions> extends infer T ? (T extends unknown ? Omit<T, 'profileId'> : never) : never;

/** The options as the contract settles them (defaults filled in), on `db` or 0. */
export function settingsOf(input: TrialInput): TrialSettings {
  const { profileId: _p, db, ...rest } = TrialOptions.parse({ profileId: 'test', ...input });
  return { ...rest, db: db ?? 0 } as TrialSettings;
}

export interface TrialRunResult {
  events: TrialEvent[];
  final: FinalTrialEvent;
  /** The run's id, so a test can look for its scratch prefix. */
  runId: string;
}

/**
 * Runs a trial against a test server the way the CLI does (a private pool),
 * checking every event against the contract as the dispatcher would.
 */
export async function trialOn(
  proc: RedisProcess,
  input: TrialInput,
  extra: { signal?: AbortSignal; onEvent?: (e: TrialEvent) => void; spec?: Partial<ProfileSpec> } = {},
): Promise<TrialRunResult> {
  const runId = `test_${randomBytes(4).toString('hex')}`;
  const spec = specFor(proc, extra.spec ?? {});
  const connector = privateConnector(spec);
  const events: TrialEvent[] = [];
  try {
    const final = await runTrial(
      { runId, settings: settingsOf(input), spec, connector },
      (e) => {
        events.push(TrialEvent.parse(e));
        extra.onEvent?.(e);
      },
      extra.signal ?? new AbortController().signal,
    );
    TrialEvent.parse(final);
    return { events, final, runId };
  } finally {
    await connector.close();
  }
}

/** The report of a run that must have ended `kind`; throws with the run's error otherwise. */
export function reportOf(r: TrialRunResult, kind: 'done' | 'cancelled' = 'done'): TrialReport {
  const { final } = r;
  if (final.kind === 'failed' || final.kind !== kind) throw new Error(`expected the trial to end ${kind}, it ended ${JSON.stringify(final)}`);
  return final.report;
}

/** Every trial scratch key in `db`, seen from the side (SCAN, so no KEYS on a shared server). */
export async function scratchKeysIn(admin: Redis, db: number): Promise<string[]> {
  await admin.select(db);
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${SCRATCH_ROOT}*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** Resolves once the run reports progress past `done` commands: a point where it has written scratch keys. */
export function progressPast(done: number): { onEvent: (e: TrialEvent) => void; reached: Promise<void> } {
  let hit: () => void = () => undefined;
  const reached = new Promise<void>((r) => (hit = r));
  return { onEvent: (e) => e.kind === 'progress' && e.done > done && hit(), reached };
}
