import type { DemoEvent, DemoReport } from '../../app/schemas/audience';
import { loadDemo } from '../core/audience/demo/loadDemo';
import { connectionFor } from '../core/sampling/runSampling';
import { parseDemoDataArgs } from './demoDataArgs';
import { specFromUrl } from './flags';
import { interruptible } from './interrupt';
import { renderDemoProgress } from './progressBar';

/** The JSON `--json` prints (snake_case like the other commands). */
export function demoJson(r: DemoReport, outcome: 'done' | 'cancelled') {
  return { users: r.users, days: r.days, seed: r.seed, first: r.first, last: r.last, layouts: r.layouts, db: r.db, keys: r.keys, commands: r.commands, bytes: r.bytes, seconds: r.seconds, outcome };
}

/** `cacheboard demo-data`: 0 when done, 1 on failure, 130 when stopped with Ctrl-C. */
export async function demoData(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parseDemoDataArgs(argv, env);
  const spec = specFromUrl(args.url);
  const tty = process.stderr.isTTY === true && !args.json;
  const stop = interruptible(args.json ? null : 'Stopping: what was written stays…');
  try {
    const emit = (e: DemoEvent) => {
      if (e.kind === 'progress' && tty) process.stderr.write(`\r${renderDemoProgress(e)}\x1b[K`);
    };
    const end = await loadDemo({ options: { ...args.settings, db: spec.db }, ...connectionFor(spec, spec.db, `cacheboard:demo:cli${process.pid}`) }, emit, stop.signal);
    if (tty) process.stderr.write('\r\x1b[K');
    if (end.kind === 'failed') {
      process.stderr.write(`cacheboard: ${end.error.message}\n`);
      if (args.json) process.stdout.write(`${JSON.stringify({ error: end.error })}\n`);
      return 1;
    }
    const r = end.report;
    process.stdout.write(
      args.json
        ? `${JSON.stringify(demoJson(r, end.kind))}\n`
        : `${end.kind === 'done' ? 'Wrote' : 'Stopped after writing part of'} ${r.users.toLocaleString('en-US')} users × ${r.days} days (${r.first} to ${r.last}, seed ${r.seed}) into ${r.address}/${r.db}: ${r.keys.toLocaleString('en-US')} keys, ${r.commands.toLocaleString('en-US')} commands in ${r.seconds} s\n`,
    );
    return end.kind === 'cancelled' ? 130 : 0;
  } finally {
    stop.dispose();
  }
}
