import * as z from 'zod';

export const Empty = z.object({}).strict();

export const ProfileId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'profile id may hold only letters, digits, _ and -');

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
