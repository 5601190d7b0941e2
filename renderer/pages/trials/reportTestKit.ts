import type { SweepPoint, TrialReport, VariantName, VariantResult } from '../../../app/schemas/trials';

/** A variant result for tests: `opsPerSec` follows from ops and seconds. */
export function variant(name: VariantName, ops: number, seconds: number, extra: Partial<VariantResult> = {}): VariantResult {
  return { variant: name, label: `${name} label`, ops, seconds, opsPerSec: ops / seconds, keys: ops, errors: 0, ...extra };
}

export function point(size: number, plain: number, pipelined: number): SweepPoint {
  const figures = (opsPerSec: number) => ({ ops: 1000, seconds: 1000 / opsPerSec, opsPerSec });
  return { size, plain: figures(plain), pipelined: figures(pipelined), ratio: pipelined / plain };
}

/** A finished pipeline trial: plain at 10k/s, the others faster. */
export function pipelineReport(extra: Partial<TrialReport> = {}): TrialReport {
  return {
    trial: 'pipeline',
    address: '127.0.0.1:6390',
    dbs: [0],
    params: { n: 2000, batch: 100, sweepN: 500 },
    variants: [
      variant('plain', 2000, 0.2, { ratio: 1 }),
      variant('pipelined', 2000, 0.01, { ratio: 20 }),
      variant('multi', 2000, 0.25, { ratio: 0.8 }),
      variant('pipelinedMulti', 2000, 0.0125, { ratio: 16 }),
    ],
    sweep: [point(1, 3000, 9000), point(10, 8000, 60000)],
    seconds: 1.5,
    warnings: [],
    ...extra,
  };
}
