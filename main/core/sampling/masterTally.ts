import type { MasterShare, SampleMethod } from '../../../app/schemas/sampling';
import type { Aggregate } from './aggregate';
import { MemoryMoments, checkAgainstServer, memoryInterval } from './memoryInterval';

/** Where a Prober puts what it finds. */
export type KeySink = Pick<Aggregate, 'add' | 'addMissing'>;

/**
 * One cluster master's share of a run: its keys go into the run's one
 * Aggregate (so types, histograms, top keys and prefixes merge exactly, not as
 * merged summaries) and are also counted here, for the per-master table.
 */
export class MasterTally implements KeySink {
  private examined = 0;
  private missing = 0;
  private readonly memory = new MemoryMoments();

  constructor(
    readonly address: string,
    readonly dbsize: number,
    private readonly into: Aggregate,
  ) {}

  // Parameters spelled out, not `...args`: a rest array a key is a million allocations a census.
  add(key: Buffer, type: number, encoding: string, memory: number, pttl: number, length: number, fieldsExpire = false): void {
    this.examined++;
    this.memory.add(memory, key);
    this.into.add(key, type, encoding, memory, pttl, length, fieldsExpire);
  }

  addMissing(): void {
    this.missing++;
    this.into.addMissing();
  }

  /** `dataset`: the master's INFO used_memory_dataset, which a sample's interval is checked against. */
  share(method: SampleMethod, dataset?: number): MasterShare {
    const scale = method === 'sample' && this.examined > 0 ? this.dbsize / this.examined : 1;
    return {
      address: this.address,
      dbsize: this.dbsize,
      keysExamined: this.examined,
      keysMissing: this.missing,
      memory: this.memory.sum,
      estimatedMemory: Math.round(this.memory.sum * scale),
      memoryInterval: checkAgainstServer(
        memoryInterval(this.memory, this.examined, this.dbsize, method === 'census'),
        method === 'census' ? undefined : dataset,
      ),
    };
  }
}
