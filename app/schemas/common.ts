import * as z from 'zod';

export const Empty = z.object({}).strict();

export const ProfileId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'profile id may hold only letters, digits, _ and -')
  .brand<'ProfileId'>();
export type ProfileId = z.output<typeof ProfileId>;

export const Db = z
  .number({ error: 'db must be a number' })
  .int('db must be a whole number')
  .min(0, 'db must be 0 or more')
  .max(65535, 'db must be 65535 or less');

export const Port = z
  .number({ error: 'port must be a number' })
  .int('port must be a whole number')
  .min(1, 'port must be between 1 and 65535')
  .max(65535, 'port must be between 1 and 65535');

export const Host = z
  .string()
  .trim()
  .min(1, 'host is required')
  .max(253, 'host is too long')
  .regex(/^[A-Za-z0-9._:\-[\]%]+$/, 'host may hold only letters, digits and . - : [ ] %');

/**
 * A long job's id as its manager makes it, `<kind>_<random>` (main/core/jobs/jobManager.ts).
 * Each kind's calls accept only their own prefix (jobIdOf); all share one type, so a job id
 * is never taken for a profile's, a client's or a node's.
 */
export const JobId = z
  .string()
  .regex(/^[a-z]+_[A-Za-z0-9_-]{4,64}$/, 'job id must be a kind and a random part, e.g. load_AbCd1234')
  .brand<'JobId'>();
export type JobId = z.output<typeof JobId>;

/** The `{ jobId }` of one job kind: its id must carry the kind's prefix. */
export function jobIdOf(prefix: string) {
  return z.object({
    jobId: z
      .string()
      .regex(new RegExp(`^${prefix}_[A-Za-z0-9_-]{4,64}$`))
      .brand<'JobId'>(),
  });
}
