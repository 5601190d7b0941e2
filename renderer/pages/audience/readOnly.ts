import type { StrategyName } from '../../../app/schemas/audience';

export interface ReadOnlyNote {
  /** Nothing chosen can run without writing: Run is disabled, and `text` says why. */
  blocked: boolean;
  text: string;
}

/**
 * What an analyst is told beside Run: their trials only read (the server skips, or refuses before
 * starting, what would store scratch keys). `readOnly` is audience.parse's list of the strategies
 * that read in place for this expression; undefined while it is being checked.
 */
export function readOnlyNote(readOnly: readonly StrategyName[] | undefined, chosen: readonly StrategyName[]): ReadOnlyNote {
  const runs = readOnly === undefined ? undefined : chosen.filter((n) => readOnly.includes(n));
  if (runs !== undefined && runs.length === 0) {
    return {
      blocked: true,
      text: chosen.includes('sets')
        ? 'Your trials only read, and every strategy would store scratch keys for this expression: only sets reads in place, for one term or terms joined by AND. Ask an ops user to run this one.'
        : 'Your trials only read: choose sets, which reads in place for one term or terms joined by AND.',
    };
  }
  return { blocked: false, text: 'Your trials only read: strategies that would store scratch keys are skipped, with the reason.' };
}
