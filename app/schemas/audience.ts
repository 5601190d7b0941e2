import * as z from 'zod';
import { call, stream } from '../define';
import { Db, jobIdOf, ProfileId } from './common';

/** The four storage/query strategies a trial times side by side, in the order they run. */
export const StrategyName = z.enum(['bitmap-lua', 'bitmap-pipeline', 'sets', 'zunionstore']);
export type StrategyName = z.output<typeof StrategyName>;
export const STRATEGY_NAMES = StrategyName.options;

/** How the data is stored: bitmaps (bit = user id), sets of user ids, per-user zsets of days. */
export const LayoutKind = z.enum(['bitmap', 'set', 'zset']);
export type LayoutKind = z.output<typeof LayoutKind>;

/** Longest range a query may cover: three years (one of them a leap year). */
export const MAX_RANGE_DAYS = 1_096;
/** Longest `where` expression accepted. */
export const MAX_WHERE_LENGTH = 2_000;

/** A calendar day, `YYYY-MM-DD` (UTC). */
export const Day = z
  .string({ error: 'a day must be text like 2024-01-31' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day must look like 2024-01-31')
  .refine((s) => {
    const t = Date.parse(`${s}T00:00:00Z`);
    // Date.parse rolls 2024-02-30 over to March 1st instead of refusing it: compare the text back.
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(s);
  }, 'not a real calendar day');

/** Whole days from `from` to `to`, both included (0 or less when `to` is before `from`). */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

const KEY_TEXT = /^[^\s{}]*$/;
/** A key template: literal text around `{placeholders}`; no spaces, no other braces (a hash tag has its own field). */
function template(what: string, placeholders: readonly string[], fallback: string) {
  return z
    .string()
    .min(1, `${what} template is required`)
    .max(200, `${what} template is too long`)
    .refine((t) => placeholders.every((p) => t.split(`{${p}}`).length === 2), {
      message: `${what} template must hold ${placeholders.map((p) => `{${p}}`).join(' and ')} once each`,
    })
    .refine((t) => KEY_TEXT.test(placeholders.reduce((s, p) => s.replace(`{${p}}`, ''), t)), {
      message: `${what} template may hold no spaces and no braces other than ${placeholders.map((p) => `{${p}}`).join(', ')}`,
    })
    .default(fallback);
}

/**
 * Where the audience data lives. Every template may be changed per connection (the page keeps
 * it per profile); the defaults are what `demo-data` writes. Bitmaps and sets need different
 * key names because one key holds one type.
 */
export const AudienceLayout = z
  .object({
    /**
     * Cluster hash tag, e.g. `aud`: every data key becomes `{aud}:` + its template and every
     * scratch key holds `{aud}`, so one slot holds them all (BITOP, SINTERSTORE, ZUNIONSTORE
     * and a script's keys must share a slot on a cluster).
     */
    hashTag: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,32}$/, 'hash tag may hold 1-32 letters, digits, _ . -')
      .optional(),
    /** Bitmap of the users holding an attribute value (bit n = user id n). */
    bitmapAttr: template('bitmapAttr', ['name', 'value'], 'attr:{name}:{value}'),
    /** Bitmap of the users active on a day. */
    bitmapActive: template('bitmapActive', ['day'], 'active:{day}'),
    /** Bitmap of every user: what NOT is taken against when it is not `A AND NOT B`. */
    bitmapAll: template('bitmapAll', [], 'users:all'),
    /** Set of the ids of the users holding an attribute value. */
    setAttr: template('setAttr', ['name', 'value'], 'attr:{name}:{value}:set'),
    /** Set of the ids of the users active on a day. */
    setActive: template('setActive', ['day'], 'active:{day}:set'),
    /** Set of every user id (for NOT, as bitmapAll). */
    setAll: template('setAll', [], 'users:all:set'),
    /** Zset of one user's active days: member `YYYY-MM-DD`, score 1 (strategy zunionstore). */
    userDays: template('userDays', ['id'], 'user:{id}:days'),
    /**
     * Where a trial's temporary keys go (each with a TTL, removed at the end of every run).
     * Refused when it could name a data key. The default sits under the `cacheboard:trial:`
     * prefix the analysts' Redis ACL in docs/security.md may write.
     */
    scratchPrefix: z
      .string()
      .min(3, 'scratchPrefix must be at least 3 characters')
      .max(100, 'scratchPrefix is too long')
      .regex(/^[^\s{}*?[\]]+$/, 'scratchPrefix may hold no spaces, braces or glob characters')
      .default('cacheboard:trial:audience:'),
  })
  .strict();
export type AudienceLayout = z.output<typeof AudienceLayout>;
export type AudienceLayoutInput = z.input<typeof AudienceLayout>;

/** The expression: `gender=f AND age=25-34 AND (region=NE OR region=MA) AND NOT interest:golf`. */
export const Where = z
  .string({ error: 'where must be text' })
  .max(MAX_WHERE_LENGTH, `where must be at most ${MAX_WHERE_LENGTH} characters`)
  // Not trimmed: parse errors give offsets into the text exactly as the user typed it.
  .refine((s) => s.trim() !== '', 'where is required, e.g. gender=f AND region=NE');

/** What every audience call aims at. */
const Target = {
  profileId: ProfileId,
  /** The profile's own DB when absent. */
  db: Db.optional(),
  layout: AudienceLayout.default(AudienceLayout.parse({})),
};

/** A range check shared by the trial options: `from` ≤ `to`, at most MAX_RANGE_DAYS. */
function checkRange(v: { from: string; to: string }, ctx: z.RefinementCtx) {
  const n = daysInRange(v.from, v.to);
  if (n < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: `to (${v.to}) is before from (${v.from})` });
  else if (n > MAX_RANGE_DAYS) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `the range is ${n} days; at most ${MAX_RANGE_DAYS} (3 years) are allowed` });
  }
}

export const AudienceTrialOptions = z
  .object({
    ...Target,
    where: Where,
    /** First day of the range (included). */
    from: Day,
    /** Last day of the range (included); at most MAX_RANGE_DAYS after `from`. */
    to: Day,
    /** Which strategies to time (default: all four); those whose layout is missing are skipped with the reason. */
    strategies: z
      .array(StrategyName)
      .min(1, 'choose at least one strategy')
      .max(4)
      .default([...STRATEGY_NAMES]),
    /** Timed runs per strategy (K). */
    trials: z
      .number({ error: 'trials must be a number' })
      .int('trials must be a whole number')
      .min(1, 'trials must be at least 1')
      .max(1_000, 'trials must be 1,000 or less')
      .default(10),
    /** Untimed runs per strategy before the timed ones (caches, script load, JIT). */
    warmup: z
      .number({ error: 'warmup must be a number' })
      .int('warmup must be a whole number')
      .min(0, 'warmup must be 0 or more')
      .max(100, 'warmup must be 100 or less')
      .default(1),
  })
  .strict()
  .superRefine(checkRange);
export type AudienceTrialOptions = z.output<typeof AudienceTrialOptions>;
export type AudienceTrialInput = z.input<typeof AudienceTrialOptions>;

/** One `name=value` (or `name:value`) term of an expression. */
export const AttributeTerm = z.object({ name: z.string(), value: z.string() });
export type AttributeTerm = z.output<typeof AttributeTerm>;

/** Where an expression stops making sense. */
export const ParseError = z.object({
  /** 0-based offset into the text as sent (the message says the 1-based column). */
  position: z.number(),
  /** What the parser expected there, e.g. ["a value", "("]. */
  expected: z.array(z.string()),
  /** What it found instead: a token's text, or "end of input". */
  found: z.string(),
  /** e.g. `column 17: expected a value after "=", found end of input`. */
  message: z.string(),
});
export type ParseError = z.output<typeof ParseError>;

export const AudienceParseInput = z
  .object({
    where: z.string().max(MAX_WHERE_LENGTH, `where must be at most ${MAX_WHERE_LENGTH} characters`),
    /** With a profile, terms are also checked against the server: `unknown` lists those with no key in any layout. */
    profileId: ProfileId.optional(),
    db: Db.optional(),
    layout: AudienceLayout.default(AudienceLayout.parse({})),
  })
  .strict();

export const AudienceParseResult = z.object({
  valid: z.boolean(),
  /** The expression rewritten with canonical spacing and the parentheses that precedence implies. */
  normalized: z.string().optional(),
  /** Distinct terms, in the order they appear. */
  terms: z.array(AttributeTerm),
  error: ParseError.optional(),
  /** Terms no layout has a key for (only checked when a profile is given). */
  unknown: z.array(AttributeTerm),
  /** Strategies that answer this audience without writing (scratch keys): all an analyst's trial may run. */
  readOnly: z.array(StrategyName).optional(),
});
export type AudienceParseResult = z.output<typeof AudienceParseResult>;

export const AttributeValue = z.object({
  value: z.string(),
  /** The layouts that hold a key for it. */
  layouts: z.array(LayoutKind),
  /** Users holding it: BITCOUNT of the bitmap, else SCARD of the set. */
  users: z.number(),
});

export const AttributeInfo = z.object({ name: z.string(), values: z.array(AttributeValue) });
export type AttributeInfo = z.output<typeof AttributeInfo>;

export const AudienceAttributes = z.object({
  /** Attributes found by SCAN over the attribute templates, names and values sorted. */
  attributes: z.array(AttributeInfo),
  /** Days that have an activity key (bitmap or set), sorted; the builder offers their range. */
  days: z.object({ first: z.string().optional(), last: z.string().optional(), count: z.number() }),
  /** Which layouts have any data (zset: a sampled user has a days zset). */
  layouts: z.object({ bitmap: z.boolean(), set: z.boolean(), zset: z.boolean() }),
  /** Keys SCAN returned while looking. */
  scanned: z.number(),
  /** The SCAN stopped at its bound before the end: some attributes may be missing. */
  truncated: z.boolean(),
  /**
   * Keys under the layout's attribute and activity prefixes that were not listed: they fit
   * no template of the layout, or their name is not UTF-8 text (which no expression can
   * name). Never dropped silently: `warnings` gives examples.
   */
  skipped: z.number(),
  /** What the listing leaves out and why (skipped keys with examples). */
  warnings: z.array(z.string()),
});
export type AudienceAttributes = z.output<typeof AudienceAttributes>;

export const DayCount = z.object({ day: z.string(), count: z.number() });
export type DayCount = z.output<typeof DayCount>;

export const StrategyResult = z.object({
  name: StrategyName,
  /** Why the strategy did not run (a missing layout, NOPERM on the scratch prefix, no scripting); absent when it ran. */
  skipped: z.string().optional(),
  /** Timed runs (0 when skipped). */
  runs: z.number(),
  /** Client-side wall time per run, from the first command written to the last reply read. */
  minMs: z.number(),
  p50Ms: z.number(),
  p95Ms: z.number(),
  meanMs: z.number(),
  /**
   * Server-side time per run: INFO commandstats usec deltas over the timed runs, divided by
   * runs. -1 means unknown: INFO commandstats was refused (ACL, a renamed INFO); shown as —.
   */
  serverMs: z.number(),
  /** Commands sent per run (a script counts as one). */
  commands: z.number(),
  /** Bytes on the wire per run: written to and read from the socket. */
  bytesOut: z.number(),
  bytesIn: z.number(),
  /** What this strategy answered on its last run (compared across strategies). */
  audienceSize: z.number(),
  days: z.array(DayCount),
  /** Identical to the reference (the first strategy that ran); false when skipped. */
  matches: z.boolean(),
});
export type StrategyResult = z.output<typeof StrategyResult>;

/** Where a strategy's answer differs from the reference: shown loudly, never averaged away. */
export const Mismatch = z.object({
  strategy: StrategyName,
  /** The strategy whose answer is the reference. */
  reference: StrategyName,
  /** Absent: the audience size differs. */
  day: z.string().optional(),
  expected: z.number(),
  got: z.number(),
});
export type Mismatch = z.output<typeof Mismatch>;

export const AudienceReport = z.object({
  /** Unique per run, for comparing saved runs. */
  id: z.string(),
  profileId: z.string(),
  /** "host:port" the trial ran against. */
  address: z.string(),
  db: z.number(),
  where: z.string(),
  normalized: z.string(),
  from: z.string(),
  to: z.string(),
  trials: z.number(),
  warmup: z.number(),
  /** The reference answer (the first strategy that ran); 0 and [] when none ran. */
  audienceSize: z.number(),
  days: z.array(DayCount),
  /** Every strategy asked for, in run order, skipped ones with their reason. */
  strategies: z.array(StrategyResult),
  /** Every strategy that ran gave the same size and the same count on every day. */
  countsMatch: z.boolean(),
  mismatches: z.array(Mismatch),
  /** Honest caveats, e.g. fewer than two strategies ran so nothing was cross-checked. */
  warnings: z.array(z.string()),
  /** ISO time the run ended. */
  finishedAt: z.string(),
  /** Wall time of the whole run, warm-up and cleanup included. */
  seconds: z.number(),
});
export type AudienceReport = z.output<typeof AudienceReport>;

export const AudienceQueryInput = z
  .object({
    ...Target,
    where: Where,
    from: Day,
    to: Day,
    /** Absent: the fastest one that can run here, in the order bitmap-lua, bitmap-pipeline, sets, zunionstore. */
    strategy: StrategyName.optional(),
  })
  .strict()
  .superRefine(checkRange);
export type AudienceQueryInput = z.input<typeof AudienceQueryInput>;

export const AudienceQueryResult = z.object({
  audienceSize: z.number(),
  days: z.array(DayCount),
  /** The strategy that answered. */
  strategy: StrategyName,
  /** The strategy's run, from its first command written to its last reply read (as a trial times it). */
  ms: z.number(),
  /** Honest caveats: a faster strategy that could not run here and why, terms missing from a layout. */
  warnings: z.array(z.string()),
});
export type AudienceQueryResult = z.output<typeof AudienceQueryResult>;

export const AudienceJobId = jobIdOf('audience');

const AudienceError = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
  /** A parse error's 0-based offset into `where`. */
  position: z.number().optional(),
});

export const AudienceEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('started'),
    address: z.string(),
    db: z.number(),
    normalized: z.string(),
    /** Every day of the range, in order. */
    days: z.array(z.string()),
    /** Strategies that will run, in order. */
    strategies: z.array(StrategyName),
    /** Strategies skipped before any run, with the reason. */
    skipped: z.array(z.object({ name: StrategyName, reason: z.string() })),
    trials: z.number(),
    warmup: z.number(),
  }),
  /** At most 10 a second. */
  z.object({
    kind: z.literal('progress'),
    strategy: StrategyName,
    /** 'warmup' runs are not timed. */
    phase: z.enum(['warmup', 'timed']),
    run: z.number(),
    runs: z.number(),
    elapsedMs: z.number(),
  }),
  /** One strategy finished (or was skipped mid-way, e.g. NOPERM on its first write). */
  z.object({ kind: z.literal('strategy'), result: StrategyResult }),
  z.object({ kind: z.literal('done'), report: AudienceReport }),
  /** A cancelled run reports the strategies that finished; scratch keys are removed all the same. */
  z.object({ kind: z.literal('cancelled'), report: AudienceReport }),
  z.object({ kind: z.literal('failed'), error: AudienceError }),
]);
export type AudienceEvent = z.output<typeof AudienceEvent>;

export const DemoDataOptions = z
  .object({
    profileId: ProfileId,
    db: Db.optional(),
    layout: AudienceLayout.default(AudienceLayout.parse({})),
    users: z
      .number({ error: 'users must be a number' })
      .int('users must be a whole number')
      .min(1, 'users must be at least 1')
      .max(10_000_000, 'users must be 10,000,000 or less')
      .default(100_000),
    days: z
      .number({ error: 'days must be a number' })
      .int('days must be a whole number')
      .min(1, 'days must be at least 1')
      .max(MAX_RANGE_DAYS, `days must be ${MAX_RANGE_DAYS} or less`)
      .default(30),
    /** The same seed gives the same users and the same activity. */
    seed: z
      .number({ error: 'seed must be a number' })
      .int('seed must be a whole number')
      .min(0, 'seed must be 0 or more')
      .max(2 ** 31 - 1, 'seed is too large')
      .default(1),
    /** First day of activity; fixed by default so a seed always gives the same keys. */
    start: Day.default('2024-01-01'),
    /** Which layouts to write (default all three). */
    layouts: z.array(LayoutKind).min(1, 'choose at least one layout').default(['bitmap', 'set', 'zset']),
    /** Write into a DB that already holds keys (demo keys are replaced, others left alone). */
    overwrite: z.boolean().default(false),
  })
  .strict();
export type DemoDataOptions = z.output<typeof DemoDataOptions>;
export type DemoDataInput = z.input<typeof DemoDataOptions>;

export const DemoReport = z.object({
  address: z.string(),
  db: z.number(),
  users: z.number(),
  days: z.number(),
  seed: z.number(),
  first: z.string(),
  last: z.string(),
  layouts: z.array(LayoutKind),
  /** Keys written, commands sent and their RESP bytes. */
  keys: z.number(),
  commands: z.number(),
  bytes: z.number(),
  seconds: z.number(),
});
export type DemoReport = z.output<typeof DemoReport>;

export const DemoJobId = jobIdOf('demo');

export const DemoEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('started'),
    address: z.string(),
    db: z.number(),
    users: z.number(),
    days: z.number(),
    layouts: z.array(LayoutKind),
    /** Users to generate (progress counts users whose commands were sent). */
    total: z.number(),
  }),
  /** At most 10 a second. */
  z.object({
    kind: z.literal('progress'),
    /** Users generated and sent so far. */
    done: z.number(),
    total: z.number(),
    /** Commands answered per second so far. */
    commandsPerSec: z.number(),
    elapsedMs: z.number(),
  }),
  z.object({ kind: z.literal('done'), report: DemoReport }),
  /** Keys already written stay; run it again to complete them. */
  z.object({ kind: z.literal('cancelled'), report: DemoReport }),
  z.object({ kind: z.literal('failed'), error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }) }),
]);
export type DemoEvent = z.output<typeof DemoEvent>;

export const audience = {
  'audience.attributes': call({
    summary: 'Attributes, values and days found by SCAN over the layout, for the expression builder',
    role: 'analyst',
    input: z.object(Target).strict(),
    output: AudienceAttributes,
  }),
  'audience.parse': call({
    summary: 'Check an expression: its normalized form and terms, or the position of the first error',
    role: 'analyst',
    input: AudienceParseInput,
    output: AudienceParseResult,
  }),
  'audience.query': call({
    summary:
      'Answer one audience query now, with one strategy (the fastest available by default): its size and per-day counts; no job, scratch keys always removed',
    role: 'analyst',
    input: AudienceQueryInput,
    output: AudienceQueryResult,
  }),
  'audience.start': call({
    summary:
      "Time the strategies on one audience and date range (scratch keys only, always removed; an analyst's trial only reads, and is refused before it starts when nothing asked can); follow it with audience.progress",
    role: 'analyst',
    input: AudienceTrialOptions,
    output: AudienceJobId,
  }),
  'audience.cancel': call({
    summary: 'Stop a running audience trial; finished strategies are reported and scratch keys removed',
    role: 'analyst',
    input: AudienceJobId,
    output: z.object({ cancelled: z.boolean() }),
  }),
  'audience.progress': stream({
    summary: 'Progress, each strategy result and the report of one audience trial (replayed to late subscribers)',
    role: 'analyst',
    input: AudienceJobId,
    event: AudienceEvent,
  }),
  'audience.history': call({
    summary: 'Reports of recent audience trials, newest first, to compare runs',
    role: 'analyst',
    input: z.object({ profileId: ProfileId.optional() }).strict(),
    output: z.object({ reports: z.array(AudienceReport) }),
  }),
  'audience.demoData': call({
    summary: 'Write the synthetic TV-audience dataset (all layouts, deterministic per seed) through the bulk pipe; follow it with audience.demoProgress',
    role: 'ops',
    input: DemoDataOptions,
    output: DemoJobId,
  }),
  'audience.demoCancel': call({
    summary: 'Stop a running demo-data load',
    role: 'ops',
    input: DemoJobId,
    output: z.object({ cancelled: z.boolean() }),
  }),
  'audience.demoProgress': stream({
    summary: 'Progress and report of one demo-data load (replayed to late subscribers)',
    role: 'ops',
    input: DemoJobId,
    event: DemoEvent,
  }),
} as const;
