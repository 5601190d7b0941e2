import type { z } from 'zod';
import type { KeyType, TopKey } from '../../../app/schemas/sampling';
import { keyName } from '../text/keyText';

export type TopKeyRow = z.output<typeof TopKey>;

export const TOP_KEYS = 20;

interface Entry {
  key: Buffer;
  type: KeyType;
  encoding: string;
  memory: number;
  length: number;
  pttl: number;
}

/**
 * The `size` biggest keys by one measure. Most keys lose to the smallest entry
 * in one comparison, so the common case costs nothing; a key drawn twice by a
 * sample is listed once.
 */
export class TopKeys {
  private readonly entries: Entry[] = [];

  constructor(
    private readonly by: 'memory' | 'length',
    private readonly size = TOP_KEYS,
  ) {}

  offer(key: Buffer, type: KeyType, encoding: string, memory: number, length: number, pttl: number): void {
    const value = this.by === 'memory' ? memory : length;
    const full = this.entries.length >= this.size;
    if (full && value <= (this.entries[this.entries.length - 1] as Entry)[this.by]) return;
    if (this.entries.some((e) => e.key.equals(key))) return;
    // Copied: the key may be a view into a socket chunk that is reused.
    this.entries.push({ key: Buffer.from(key), type, encoding, memory, length, pttl });
    this.entries.sort((a, b) => b[this.by] - a[this.by]);
    if (this.entries.length > this.size) this.entries.pop();
  }

  rows(): TopKeyRow[] {
    return this.entries.map((e) => ({
      key: keyName(e.key),
      type: e.type,
      encoding: e.encoding,
      memory: e.memory,
      length: e.length,
      ttl: e.pttl < 0 ? -1 : Math.round(e.pttl / 1000),
    }));
  }
}
