import type { LoadReport } from '../../../../app/schemas/bulk';

/** The report a load starts from (standalone or cluster): nothing sent yet, outcome ok until told otherwise. */
export function emptyReport(input: { jobId: string; fileLabel: string; format: LoadReport['format']; mode: LoadReport['mode'] }, targetDb: number): LoadReport {
  return {
    jobId: input.jobId,
    file: input.fileLabel,
    format: input.format,
    mode: input.mode,
    targetDb,
    outcome: 'ok',
    records: 0,
    commands: 0,
    replies: 0,
    errors: 0,
    firstErrors: [],
    seconds: 0,
    opsPerSec: 0,
    recordsPerSec: 0,
    swapped: false,
    warnings: [],
  };
}
