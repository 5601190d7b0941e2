import { addDays } from '../days';
import { cumulate, pick, seededRandom } from './random';

/** Single-valued attributes of the synthetic TV audience, with how common each value is. */
export const DEMO_ATTRIBUTES = {
  gender: { values: ['f', 'm'], weights: [51, 49] },
  age: { values: ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'], weights: [12, 18, 17, 17, 16, 20] },
  region: { values: ['NE', 'MA', 'SA', 'ENC', 'WNC', 'ESC', 'WSC', 'MT', 'PAC', 'NW'], weights: [5, 13, 20, 14, 7, 6, 12, 8, 11, 4] },
  income: { values: ['lt25k', '25-50k', '50-100k', '100-150k', '150k+'], weights: [18, 22, 30, 17, 13] },
} as const;

/** Interest flags (`interest=golf`) and the share of viewers who have each. */
export const DEMO_INTERESTS: readonly (readonly [string, number])[] = [
  ['news', 0.45],
  ['movies', 0.4],
  ['sports', 0.35],
  ['cooking', 0.3],
  ['travel', 0.28],
  ['documentaries', 0.25],
  ['music', 0.25],
  ['politics', 0.2],
  ['football', 0.2],
  ['fitness', 0.18],
  ['pets', 0.18],
  ['tech', 0.15],
  ['gaming', 0.14],
  ['finance', 0.12],
  ['kids', 0.12],
  ['fashion', 0.1],
  ['gardening', 0.1],
  ['cars', 0.09],
  ['tennis', 0.06],
  ['golf', 0.05],
];

export type AttrName = keyof typeof DEMO_ATTRIBUTES;
export const ATTR_NAMES = Object.keys(DEMO_ATTRIBUTES) as AttrName[];

/** One synthetic viewer. */
export interface DemoUser {
  /** 1 … users; also the bit offset in every bitmap. */
  id: number;
  attrs: Record<AttrName, string>;
  interests: string[];
  /** Indexes (0 … days-1) of the days the viewer watched. */
  activeDays: number[];
}

export interface DemoShape {
  users: number;
  days: number;
  seed: number;
  /** First day, YYYY-MM-DD. */
  start: string;
}

const CUMULATIVE = Object.fromEntries(ATTR_NAMES.map((n) => [n, cumulate(DEMO_ATTRIBUTES[n].weights)])) as Record<AttrName, number[]>;

/** Every (name, value) the dataset can hold, interests as name `interest`. */
export function demoAttributeValues(): { name: string; value: string }[] {
  return [
    ...ATTR_NAMES.flatMap((name) => DEMO_ATTRIBUTES[name].values.map((value) => ({ name, value }))),
    ...DEMO_INTERESTS.map(([value]) => ({ name: 'interest', value })),
  ];
}

export function demoDays(shape: Pick<DemoShape, 'days' | 'start'>): string[] {
  return Array.from({ length: shape.days }, (_, i) => addDays(shape.start, i));
}

/**
 * The viewers, in id order, drawn from one seeded generator in a fixed order of draws, so
 * a seed always gives the same people and the same viewing. Each viewer has a propensity
 * to watch (most watch rarely, a few daily), a little higher at weekends.
 */
export function* demoUsers(shape: DemoShape): Generator<DemoUser> {
  const rnd = seededRandom(shape.seed);
  const weekend = demoDays(shape).map((d) => [0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()));
  for (let id = 1; id <= shape.users; id++) {
    const attrs = {} as Record<AttrName, string>;
    for (const n of ATTR_NAMES) attrs[n] = DEMO_ATTRIBUTES[n].values[pick(CUMULATIVE[n], rnd())] as string;
    const older = attrs.age === '55-64' || attrs.age === '65+';
    const interests: string[] = [];
    for (const [name, p] of DEMO_INTERESTS) {
      // A little structure for the demo: golf and news skew older, gaming younger.
      const tilt = name === 'golf' || name === 'news' ? (older ? 1.6 : 0.8) : name === 'gaming' ? (older ? 0.4 : 1.4) : 1;
      if (rnd() < p * tilt) interests.push(name);
    }
    const r = rnd();
    const propensity = 0.05 + 0.6 * r * r;
    const activeDays: number[] = [];
    for (let d = 0; d < shape.days; d++) if (rnd() < Math.min(0.95, weekend[d] ? propensity * 1.3 : propensity)) activeDays.push(d);
    yield { id, attrs, interests, activeDays };
  }
}
