import { AppError } from '../../../../app/errors';
import type { MasterNode } from '../../pool/types';
import { SLOTS } from '../../resp/slot';

const UNOWNED = 0xffff;

/** Which master serves each slot: indexes into `addresses`, which only ever grows. */
export class SlotMap {
  readonly addresses: string[] = [];
  private readonly owners = new Uint16Array(SLOTS).fill(UNOWNED);

  /** Replace every slot's owner with what CLUSTER NODES says now. */
  assign(masters: readonly MasterNode[]): void {
    this.owners.fill(UNOWNED);
    for (const m of masters) {
      const index = this.indexOf(m.address);
      for (const [from, to] of m.slots ?? []) this.owners.fill(index, from, to + 1);
    }
  }

  /** A MOVED reply names the slot's owner now: believe it over an older map. */
  move(slot: number, address: string): void {
    this.owners[slot] = this.indexOf(address);
  }

  /** Index of the master serving `slot`; throws when no master does (cluster_state:fail). */
  ownerOf(slot: number): number {
    const owner = this.owners[slot] as number;
    if (owner === UNOWNED) {
      throw new AppError('REDIS', `No master serves hash slot ${slot} (CLUSTERDOWN): fix the cluster's slot coverage, then load again`);
    }
    return owner;
  }

  /** The masters that serve at least one slot. */
  serving(): string[] {
    const used = new Set(this.owners);
    return this.addresses.filter((_, i) => used.has(i));
  }

  indexOf(address: string): number {
    let i = this.addresses.indexOf(address);
    if (i === -1) i = this.addresses.push(address) - 1;
    return i;
  }
}
