import type { Redis } from 'ioredis';
import type { CommandUsec } from '../main/core/audience/commandStats';
import { commandUsec } from './floor';

/**
 * INFO commandstats now (floor.ts' commandUsec) without the PING probe's PINGs: a bench runs
 * its probe beside the job, and those PINGs are not the job's commands.
 */
export async function jobUsec(admin: Redis): Promise<CommandUsec> {
  const usec = await commandUsec(admin);
  usec.delete('ping');
  return usec;
}
