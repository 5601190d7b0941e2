import type { JobKind } from './jobManager';

/** How most jobs end: done (their report), cancelled (the part finished) or failed. */
export type Outcome<E extends { kind: string }> = Extract<E, { kind: 'done' | 'cancelled' | 'failed' }>;

export function isOutcome<E extends { kind: string }>(e: E): e is Outcome<E> {
  return e.kind === 'done' || e.kind === 'cancelled' || e.kind === 'failed';
}

/**
 * The replay policy of a job whose runner resolves with its outcome: the kinds in `latest`
 * (progress, a partial report) are kept newest only, the rest in order; a crash is a failed
 * outcome with an INTERNAL error saying `crashed: <message>`.
 */
export function outcomeJob<E extends { kind: string }>(o: {
  prefix: string;
  noun: string;
  latest: readonly E['kind'][];
  crashed: string;
}): JobKind<E, Outcome<E>> {
  return {
    prefix: o.prefix,
    noun: o.noun,
    latestSlot: (e) => (o.latest.includes(e.kind) ? e.kind : undefined),
    isFinal: isOutcome,
    finish: (e) => e,
    // Every outcome job's event union has this failed shape (app/schemas); E is generic here.
    crashed: (message) => ({ kind: 'failed', error: { code: 'INTERNAL', message: `${o.crashed}: ${message}` } }) as unknown as Outcome<E>,
  };
}
