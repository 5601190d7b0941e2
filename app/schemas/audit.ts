import * as z from 'zod';
import { call } from '../define';

/**
 * A number in an entry's detail, kept as a number so the page writes it as people do
 * ("20.7 MiB", "1,200,000 records"). `unit` is `bytes`, `seconds`, or the noun counted.
 */
export const AuditFigure = z.object({ n: z.number(), unit: z.string().max(40) });

export const AuditEntry = z.object({
  at: z.string(),
  user: z.string(),
  action: z.string(),
  target: z.string(),
  /** `started` is a run with no end on record yet (still running, or the process died); `refused` never ran. */
  outcome: z.enum(['started', 'ok', 'failed', 'cancelled', 'refused']),
  detail: z.string().optional(),
  figures: z.array(AuditFigure).optional(),
  /** From its start to this end: the start is folded into this one row. */
  durationMs: z.number().optional(),
});

export const audit = {
  'audit.list': call({
    summary:
      'The newest audit log entries (bulk loads, swaps, flushes, BGSAVE, BGREWRITEAOF, CONFIG SET, MONITOR, trials, Pub/Sub publishes, refused calls), newest first, each run as one row',
    role: 'ops',
    input: z.object({ limit: z.number().int().min(1).max(1000).default(200) }).strict(),
    output: z.object({ entries: z.array(AuditEntry) }),
  }),
} as const;
