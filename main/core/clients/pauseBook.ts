import type { PauseMode } from '../../../app/schemas/clients';
import type { ProfileId } from '../../../app/schemas/common';

/** Pauses remembered at most: one per node, and every one runs out within a minute. */
const MAX_PAUSES = 1_000;

export interface Pause {
  mode: PauseMode;
  /** ms since the epoch. */
  until: number;
}

/**
 * The CLIENT PAUSEs sent through Cacheboard that have not run out, by profile and node: Redis
 * says no word of a pause (INFO has no field for it before 7.4), and the page must know one,
 * since under PAUSE ALL even CLIENT LIST and CLIENT UNPAUSE wait until it ends.
 */
export class PauseBook {
  private readonly pauses = new Map<string, Pause>();

  constructor(private readonly now: () => number = Date.now) {}

  set(profileId: ProfileId, address: string, pause: Pause): void {
    this.prune();
    if (this.pauses.size >= MAX_PAUSES) {
      const oldest = this.pauses.keys().next();
      if (oldest.done !== true) this.pauses.delete(oldest.value);
    }
    this.pauses.set(keyOf(profileId, address), pause);
  }

  get(profileId: ProfileId, address: string): Pause | undefined {
    const p = this.pauses.get(keyOf(profileId, address));
    return p !== undefined && p.until > this.now() ? p : undefined;
  }

  clear(profileId: ProfileId, address: string): void {
    this.pauses.delete(keyOf(profileId, address));
  }

  private prune(): void {
    const now = this.now();
    for (const [k, p] of this.pauses) if (p.until <= now) this.pauses.delete(k);
  }
}

function keyOf(profileId: ProfileId, address: string): string {
  return `${profileId}\n${address}`;
}
