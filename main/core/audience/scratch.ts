import { randomBytes } from 'node:crypto';
import { AppError } from '../../../app/errors';
import { literalHead, type LayoutKeys } from './layoutKeys';

/**
 * Temporary keys of one trial: `<scratchPrefix>[{tag}:]<run>:<n>`. Inside a cluster the
 * hash tag puts them in the data's slot (BITOP/SINTERSTORE/ZUNIONSTORE and a script's keys
 * must share one). The same names serve every run of the trial; each run deletes them.
 */
export class Scratch {
  readonly run: string;
  readonly base: string;
  private readonly names = new Set<string>();

  constructor(keys: LayoutKeys, run = `r${randomBytes(6).toString('hex')}`) {
    this.run = run;
    const tag = keys.layout.hashTag === undefined ? '' : `{${keys.layout.hashTag}}:`;
    this.base = `${keys.layout.scratchPrefix}${tag}${run}:`;
  }

  /** The n-th scratch key (remembered, for the cleanup after a failure). */
  key(n: number | string): string {
    const k = `${this.base}${n}`;
    this.names.add(k);
    return k;
  }

  /** Every scratch key handed out so far. */
  all(): string[] {
    return [...this.names];
  }
}

/** Scratch keys look like this; anything else under the prefix is somebody's data. */
export const SCRATCH_KEY = /^r[0-9a-f]{12}:/;

/**
 * A scratch prefix that a data template could also produce would let a trial write over
 * (and then delete) real data: refused, naming both.
 */
export function checkScratchPrefix(keys: LayoutKeys): void {
  const p = keys.layout.scratchPrefix;
  for (const t of keys.templates()) {
    const head = literalHead(t);
    if (head === '' || p.startsWith(head) || head.startsWith(p)) {
      throw new AppError(
        'VALIDATION',
        `scratch prefix "${p}" collides with data keys "${t}": trial keys could overwrite data. Choose a prefix no data template starts with.`,
        'layout.scratchPrefix',
      );
    }
  }
}
