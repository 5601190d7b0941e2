import type { AudienceEvent } from '../../app/schemas/audience';
import { audienceTrialName, runAudience } from '../core/audience/runAudience';
import { connectionFor } from '../core/resp/rawTarget';
import { parseAudienceArgs } from './audienceArgs';
import { audienceJson, audienceText } from './audienceOutput';
import { runCliJob } from './cliJob';
import { audienceTarget } from './audienceTarget';
import { specFromFlags } from './topologyFlags';
import { renderAudienceProgress } from './progressBar';

/** Exit code when the strategies disagree: the run worked, its answer cannot be trusted. */
export const COUNTS_DIFFER = 3;

/** `cacheboard audience`: 0 when done, 3 when counts differ, 1 on failure, 128 + the signal's number when stopped (130 for Ctrl-C, 143 for SIGTERM). */
export async function audience(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseAudienceArgs(argv, env);
  const spec = await audienceTarget(specFromFlags(args.connection), args.settings.layout);
  const run = await runCliJob({
    json: args.json,
    stopNote: 'Stopping: reporting the strategies that finished…',
    progress: (e: AudienceEvent) => (e.kind === 'progress' ? renderAudienceProgress(e) : null),
    run: (emit, signal) =>
      runAudience(
        {
          profileId: 'cli',
          reportId: `cli${process.pid}`,
          options: { ...args.settings, db: spec.db },
          ...connectionFor(spec, spec.db, audienceTrialName(`cli${process.pid}`)),
        },
        emit,
        signal,
      ),
  });
  if (run === null) return 1;
  const { end, code } = run;
  process.stdout.write(args.json ? `${JSON.stringify(audienceJson(end.report))}\n` : audienceText(end.report));
  if (end.kind === 'cancelled') return code;
  if (!end.report.countsMatch) {
    process.stderr.write(`cacheboard: THE STRATEGIES' COUNTS DIFFER (${end.report.mismatches.length} differences): the layouts' data disagree\n`);
    return COUNTS_DIFFER;
  }
  return 0;
}
