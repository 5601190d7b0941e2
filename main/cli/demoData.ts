import type { DemoEvent, DemoReport } from '../../app/schemas/audience';
import { demoLayoutFor } from '../core/audience/audienceServer';
import { loadDemo } from '../core/audience/demo/loadDemo';
import { connectionFor } from '../core/resp/rawTarget';
import { cleanLeftoversFirst } from './cliPool';
import { printFailure, runCliJob } from './cliJob';
import { parseDemoDataArgs } from './demoDataArgs';
import { audienceTarget } from './audienceTarget';
import { specFromFlags } from './topologyFlags';
import { renderDemoProgress } from './progressBar';

/** The JSON `--json` prints (snake_case like the other commands). */
export function demoJson(r: DemoReport, outcome: 'done' | 'cancelled') {
  return {
    users: r.users,
    days: r.days,
    seed: r.seed,
    first: r.first,
    last: r.last,
    layouts: r.layouts,
    db: r.db,
    keys: r.keys,
    commands: r.commands,
    bytes: r.bytes,
    seconds: r.seconds,
    outcome,
  };
}

const n = (x: number) => x.toLocaleString('en-US');

/** `cacheboard demo-data`: 0 when done, 1 on failure, 128 + the signal's number when stopped (130 for Ctrl-C, 143 for SIGTERM). */
export async function demoData(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseDemoDataArgs(argv, env);
  const profile = specFromFlags(args.connection);
  const settings = { ...args.settings, layout: demoLayoutFor(profile, args.settings.layout) };
  // What a killed load left on this server is put right first, as every command that connects does.
  await cleanLeftoversFirst(profile);
  const spec = await audienceTarget(profile, settings.layout);
  const run = await runCliJob({
    json: args.json,
    stopNote: 'Stopping: what was written stays…',
    progress: (e: DemoEvent) => (e.kind === 'progress' ? renderDemoProgress(e) : null),
    run: (emit, signal) =>
      loadDemo({ options: { ...settings, db: spec.db }, ...connectionFor(spec, spec.db, `cacheboard:demo:cli${process.pid}`) }, emit, signal),
    // The core names the contract's field ("(overwrite)"); a shell user knows the flag.
    failed: (error: { code: string; message: string }) =>
      printFailure({ ...error, message: error.message.replaceAll('(overwrite)', '(--overwrite)') }, args.json),
  });
  if (run === null) return 1;
  const { end, code } = run;
  const r = end.report;
  process.stdout.write(
    args.json
      ? `${JSON.stringify(demoJson(r, end.kind))}\n`
      : `${end.kind === 'done' ? 'Wrote' : 'Stopped after writing part of'} ${n(r.users)} users × ${r.days} days (${r.first} to ${r.last}, seed ${r.seed}) into ${r.address}/${r.db}: ${n(r.keys)} keys, ${n(r.commands)} commands in ${r.seconds} s\n`,
  );
  return code;
}
