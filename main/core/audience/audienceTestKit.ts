import type { Redis } from 'ioredis';
import {
  AudienceLayout,
  AudienceTrialOptions,
  DemoDataOptions,
  type AudienceEvent,
  type AudienceTrialInput,
  type DemoDataInput,
  type DemoEvent,
} from '../../../app/schemas/audience';
import type { ProfileSpec } from '../../../app/schemas/connections';
import { specFor } from '../../../testing/profiles';
import type { RedisProcess } from '../../../testing/redis';
import { connectionFor } from '../resp/rawTarget';
import type { FinalAudienceEvent } from './audienceJobs';
import { loadDemo } from './demo/loadDemo';
import type { FinalDemoEvent } from './demo/demoJobs';
import { demoDays, demoUsers, type DemoShape, type DemoUser } from './demo/tvAudience';
import { audienceTrialName, runAudience, type AudienceRun } from './runAudience';

export async function demoInto(proc: RedisProcess, input: Partial<DemoDataInput> = {}, db = 0): Promise<{ final: FinalDemoEvent; events: DemoEvent[] }> {
  const { profileId: _p, db: _d, ...options } = DemoDataOptions.parse({ profileId: 't', ...input });
  const events: DemoEvent[] = [];
  const final = await loadDemo(
    { options: { ...options, db }, ...connectionFor(specFor(proc), db, 'cacheboard:demo:test') },
    (e) => events.push(e),
    new AbortController().signal,
  );
  return { final, events };
}

export interface TrialOf {
  final: FinalAudienceEvent;
  events: AudienceEvent[];
}

/** One audience trial against a test server, as the app would run it (options through the contract's schema). */
export async function trialOf(
  proc: RedisProcess,
  input: Partial<AudienceTrialInput>,
  extra: { spec?: Partial<ProfileSpec>; signal?: AbortSignal; onEvent?: (e: AudienceEvent) => void; strategies?: AudienceRun['strategies'] } = {},
): Promise<TrialOf> {
  const {
    profileId,
    db: _d,
    ...options
  } = AudienceTrialOptions.parse({ profileId: 't', from: '2024-01-01', to: '2024-01-10', trials: 2, warmup: 1, ...input });
  const spec = specFor(proc, extra.spec);
  const events: AudienceEvent[] = [];
  const final = await runAudience(
    {
      profileId,
      reportId: 'audience_test',
      options: { ...options, db: 0 },
      ...connectionFor(spec, 0, audienceTrialName('audience_test')),
      ...(extra.strategies ? { strategies: extra.strategies } : {}),
    },
    (e) => {
      events.push(e);
      extra.onEvent?.(e);
    },
    extra.signal ?? new AbortController().signal,
  );
  return { final, events };
}

export const DEFAULT_LAYOUT = AudienceLayout.parse({});

/** Keys under the default scratch prefix: a trial must leave none. */
export async function scratchLeft(admin: Redis, prefix = DEFAULT_LAYOUT.scratchPrefix): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    out.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return out;
}

/** A demo dataset's records as the generator makes them, to count audiences without Redis or the parser. */
export function demoRecords(shape: DemoShape) {
  const users = [...demoUsers(shape)];
  const days = demoDays(shape);
  return {
    users,
    days,
    /** The audience `match` selects: its size and, per day of `range`, how many of it were active. */
    expected(match: (u: DemoUser) => boolean, range: readonly string[] = days) {
      const audience = users.filter(match);
      return {
        size: audience.length,
        days: range.map((day) => ({ day, count: audience.filter((u) => u.activeDays.includes(days.indexOf(day))).length })),
      };
    },
  };
}

/** Whether a demo user has an interest flag. */
export const hasInterest = (u: DemoUser, interest: string) => u.interests.includes(interest);
