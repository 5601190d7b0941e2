import type { SweepPoint, TrialEvent, VariantName, VariantResult } from '../../../app/schemas/trials';

/** How each variant sends its commands, in a few words for tables and the CLI. */
export const VARIANT_LABELS: Record<VariantName, string> = {
  plain: 'plain: one round trip per SET',
  pipelined: 'pipelined batches',
  multi: 'MULTI/EXEC around each SET',
  pipelinedMulti: 'pipelined MULTI/EXEC batches',
  blocking: 'one connection, SELECT, sequential',
  multiplexed: 'per-DB connections, pipelined',
  fireAndForget: 'fire and forget, await at the end',
  set: 'SET',
  get: 'GET',
};

export type VariantFigures = Omit<VariantResult, 'ratio' | 'label' | 'opsPerSec'>;

/**
 * What a run has measured so far, emitted as it comes in: each finished variant
 * (with its ratio to the baseline) and each sweep point.
 */
export class TrialRecorder {
  readonly variants: VariantResult[] = [];
  readonly sweep: SweepPoint[] = [];
  readonly warnings: string[] = [];

  constructor(
    private readonly emit: (e: TrialEvent) => void,
    /** The variant ratios are taken against (plain, blocking); none for the load trial. */
    private readonly baseline: VariantName | undefined,
  ) {}

  variant(f: VariantFigures): VariantResult {
    const opsPerSec = rate(f.ops, f.seconds);
    const base = f.variant === this.baseline ? opsPerSec : this.variants.find((v) => v.variant === this.baseline)?.opsPerSec;
    const result: VariantResult = {
      ...f,
      label: VARIANT_LABELS[f.variant],
      opsPerSec,
      ...(base === undefined || base <= 0 ? {} : { ratio: opsPerSec / base }),
    };
    this.variants.push(result);
    this.emit({ kind: 'variant', result });
    return result;
  }

  warn(text: string): void {
    this.warnings.push(text);
  }

  point(p: SweepPoint): void {
    this.sweep.push(p);
    this.emit({ kind: 'sweep', point: p });
  }
}

export function rate(ops: number, seconds: number): number {
  return seconds > 0 ? ops / seconds : 0;
}
