import { AppError } from '../../app/errors';
import { DemoDataOptions, LayoutKind } from '../../app/schemas/audience';
import type { DemoSettings } from '../core/audience/demo/loadDemo';
import { int, parseFlags, throughSchema } from './flags';
import { connectionFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS, type ConnectionFlags } from './topologyFlags';
import { layoutFlagOf, layoutFlags, LAYOUT_HELP, LAYOUT_OPTIONS } from './layoutFlags';

export interface DemoDataArgs {
  connection: ConnectionFlags;
  settings: Omit<DemoSettings, 'db'>;
  json: boolean;
}

export const DEMO_DATA_HELP = `Usage: cacheboard demo-data --url redis://[user:pass@]host:port/db [options]

Writes a synthetic TV audience for \`cacheboard audience\` and the Audience trials
page: gender, age band (6), region (10), income band (5), 20 interest flags and
daily viewing from a per-user propensity. The same seed gives the same data.
It goes through the bulk-load pipe in all three layouts: bitmaps (attr:{name}:{value},
active:{day}, users:all), sets (the same names + :set) and one zset of days per
user (user:{id}:days). A DB that holds keys is refused unless --overwrite.

  --users N             viewers (100000); ids 1 … N, bit n is viewer n
  --days D              days of viewing (30)
  --seed S              (1)
  --start YYYY-MM-DD    first day (2024-01-01)
  --layouts L           some of bitmap,set,zset (all three)
  --overwrite           write into a DB that holds keys: demo keys are replaced,
                        other keys left alone
${LAYOUT_HELP}  --json                print one JSON object: users, days, seed, first, last,
                        layouts, keys, commands, bytes, seconds

${TOPOLOGY_HELP}  On a cluster the keys get the hash tag {aud} unless --hash-tag names another,
  so they share one slot, and go to the master serving it.
The URL may also come from REDIS_URL. Exit code 0 when done, 1 on failure, 130
when stopped with Ctrl-C, 143 with SIGTERM, 129 with SIGHUP (what was written stays).
`;

const FLAG_OF: Record<string, string> = { users: 'users', days: 'days', seed: 'seed', start: 'start', layouts: 'layouts', overwrite: 'overwrite' };

function layouts(v: string | undefined): LayoutKind[] | undefined {
  if (v === undefined) return undefined;
  return v.split(',').map((s) => {
    const k = LayoutKind.options.find((x) => x === s.trim());
    if (k === undefined) throw new AppError('VALIDATION', `--layouts: unknown layout "${s}": ${LayoutKind.options.join(', ')}`, 'layouts');
    return k;
  });
}

export function parseDemoDataArgs(argv: string[], env: NodeJS.ProcessEnv): DemoDataArgs {
  const v = parseFlags(
    argv,
    {
      url: { type: 'string' },
      ...TOPOLOGY_OPTIONS,
      users: { type: 'string' },
      days: { type: 'string' },
      seed: { type: 'string' },
      start: { type: 'string' },
      layouts: { type: 'string' },
      overwrite: { type: 'boolean' },
      ...LAYOUT_OPTIONS,
      json: { type: 'boolean' },
    },
    DEMO_DATA_HELP,
  );
  const raw = {
    profileId: 'cli',
    users: int('users', v.users, 0),
    days: int('days', v.days, 0),
    seed: int('seed', v.seed, 0),
    start: v.start,
    layouts: layouts(v.layouts),
    overwrite: v.overwrite ?? false,
    layout: layoutFlags(v),
  };
  const { profileId: _p, db: _d, ...settings } = throughSchema(DemoDataOptions, raw, (f) => FLAG_OF[f] ?? layoutFlagOf(f));
  return { connection: connectionFlags(v, env), settings, json: v.json ?? false };
}
