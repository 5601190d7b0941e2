import { AppError } from '../../app/errors';
import { AudienceTrialOptions, STRATEGY_NAMES, type StrategyName } from '../../app/schemas/audience';
import type { AudienceSettings } from '../core/audience/runAudience';
import { layoutFlagOf, layoutFlags, LAYOUT_HELP, LAYOUT_OPTIONS } from './layoutFlags';
import { int, parseFlags, throughSchema } from './flags';
import { connectionFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS, type ConnectionFlags } from './topologyFlags';

export interface AudienceArgs {
  connection: ConnectionFlags;
  settings: Omit<AudienceSettings, 'db'>;
  json: boolean;
}

export const AUDIENCE_HELP = `Usage: cacheboard audience --url redis://[user:pass@]host:port/db --where EXPR --from YYYY-MM-DD --to YYYY-MM-DD [options]

Counts an audience (users by attribute) and how many of it were active on each
day of the range, timing four storage/query strategies side by side on the real
server and checking that they all give the same counts:
  bitmap-lua        bitmaps, evaluated server-side in one Lua script
  bitmap-pipeline   bitmaps with BITOP/BITCOUNT, pipelined
  sets              SINTERSTORE/SUNIONSTORE/SDIFFSTORE, then SINTERCARD per day
  zunionstore       the audience's per-user zsets, ZUNIONSTORE … AGGREGATE SUM
Strategies whose layout is missing, or that need to write scratch keys the
Redis user may not write, are skipped with the reason.

  --where EXPR          e.g. 'gender=f AND age=25-34 AND (region=NE OR
                        region=MA) AND NOT interest:golf' (AND, OR, NOT, ( ),
                        name=value or name:value, "quoted values")
  --from DAY, --to DAY  the range, both included, at most 3 years
  --strategy S          all (default), or one or more of ${STRATEGY_NAMES.join(', ')}
                        separated by commas
  --trials K            timed runs per strategy (10)
  --warmup W            untimed runs before them (1)
${LAYOUT_HELP}  --json                print one JSON object: audience_size, days [{day,count}],
                        strategies [{name,min_ms,p50_ms,p95_ms,skipped,…}],
                        counts_match

${TOPOLOGY_HELP}  On a cluster the layout needs --hash-tag (its keys must share one slot) and the
  trial runs on the master serving that slot.
The URL may also come from REDIS_URL. Exit code 0 when done, 3 when the
strategies' counts differ, 1 on failure, 130 when stopped with Ctrl-C (143 for
SIGTERM, 129 for SIGHUP).
`;

const FLAG_OF: Record<string, string> = { where: 'where', from: 'from', to: 'to', strategies: 'strategy', trials: 'trials', warmup: 'warmup' };

function strategies(v: string | undefined): StrategyName[] | undefined {
  if (v === undefined || v === 'all') return undefined;
  return v.split(',').map((s) => {
    const name = STRATEGY_NAMES.find((n) => n === s.trim());
    if (name === undefined) throw new AppError('VALIDATION', `--strategy: unknown strategy "${s}": all, or ${STRATEGY_NAMES.join(', ')}`, 'strategy');
    return name;
  });
}

/** Flags to validated trial settings; every error names its flag. */
export function parseAudienceArgs(argv: string[], env: NodeJS.ProcessEnv): AudienceArgs {
  const v = parseFlags(
    argv,
    {
      url: { type: 'string' },
      ...TOPOLOGY_OPTIONS,
      where: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      strategy: { type: 'string' },
      trials: { type: 'string' },
      warmup: { type: 'string' },
      ...LAYOUT_OPTIONS,
      json: { type: 'boolean' },
    },
    AUDIENCE_HELP,
  );
  const connection = connectionFlags(v, env);
  for (const f of ['where', 'from', 'to'] as const) if (v[f] === undefined) throw new AppError('VALIDATION', `--${f} is required\n\n${AUDIENCE_HELP}`, f);
  const raw = {
    profileId: 'cli',
    where: v.where,
    from: v.from,
    to: v.to,
    strategies: strategies(v.strategy),
    trials: int('trials', v.trials, 0),
    warmup: int('warmup', v.warmup, 0),
    layout: layoutFlags(v),
  };
  const { profileId: _p, db: _d, ...settings } = throughSchema(AudienceTrialOptions, raw, (f) => FLAG_OF[f] ?? layoutFlagOf(f));
  return { connection, settings, json: v.json ?? false };
}
