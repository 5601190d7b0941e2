import * as z from 'zod';
import { call } from '../define';

export const AuditEntry = z.object({
  at: z.string(),
  user: z.string(),
  action: z.string(),
  target: z.string(),
  outcome: z.enum(['started', 'ok', 'failed', 'cancelled']),
  detail: z.string().optional(),
});

export const audit = {
  'audit.list': call({
    summary: 'The newest audit log entries (bulk loads, swaps, flushes, BGSAVE, BGREWRITEAOF, CONFIG SET, MONITOR), newest first',
    role: 'ops',
    input: z.object({ limit: z.number().int().min(1).max(1000).default(200) }).strict(),
    output: z.object({ entries: z.array(AuditEntry) }),
  }),
} as const;
