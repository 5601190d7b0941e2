import type { z } from 'zod';
import { AppError } from '../../../../app/errors';
import type { ResumableRun } from '../../../../app/schemas/keyActions';
import type { Checkpoint } from './checkpoints';
import { matchText } from './describeRun';

/** The checkpoint, if it belongs to this profile and no run of this process holds it. */
export function resumable(cp: Checkpoint, profileId: string, active: ReadonlySet<string>): Checkpoint {
  if (cp.profileId !== profileId) throw new AppError('VALIDATION', `Run ${cp.runId} belongs to another profile`, 'resume');
  if (active.has(cp.runId)) throw new AppError('CONFLICT', `Run ${cp.runId} is running now`, 'resume');
  return cp;
}

/** A checkpoint as the Keys page lists it: its shards' counts summed, cursors left out. */
export function toResumable(cp: Checkpoint): z.output<typeof ResumableRun> {
  const sum = (f: (s: Checkpoint['shards'][number]) => number) => cp.shards.reduce((a, s) => a + f(s), 0);
  return {
    runId: cp.runId,
    profileId: cp.profileId,
    db: cp.db,
    op: cp.op,
    match: matchText(cp.selection),
    startedAt: cp.startedAt,
    counts: {
      scanned: sum((s) => s.scanned),
      total: cp.total,
      matched: sum((s) => s.matched),
      acted: sum((s) => s.acted),
      skipped: sum((s) => s.skipped),
      errors: sum((s) => s.errors),
      short: sum((s) => s.short + s.inFlight),
      seconds: cp.seconds,
      shards: cp.shards.map(({ cursor: _cursor, ...c }) => c),
    },
  };
}
