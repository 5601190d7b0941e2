import type { Redis } from 'ioredis';
import type { LoadReport } from '../../../../app/schemas/bulk';
import { holdSetting, releaseSetting, type SettingHold, type SettingSpec } from './heldSetting';

export type SaveConfigReport = NonNullable<LoadReport['saveConfig']>;

/** What suspendAutoSaves did, to be handed back to resumeAutoSaves. */
export type SaveSuspension = SettingHold;

/**
 * Automatic saves off for the load: an RDB save forks, and with the load
 * writing every page the fork's copy-on-write can double memory.
 */
const SAVES: SettingSpec = {
  param: 'save',
  want: () => '',
  name: 'automatic saves',
  alreadyNote: 'automatic saves were already off; left unchanged',
};

/** Turn automatic saves off for the load, the original journaled on disk first (heldSetting.ts). */
export function suspendAutoSaves(redis: Redis, opts: { journalDir: string; host: string; port: number; jobId: string }): Promise<SaveSuspension> {
  return holdSetting(redis, SAVES, opts);
}

/** Put the original save config back (the last load out on a server does). */
export function resumeAutoSaves(s: SaveSuspension, connections: (() => Promise<Redis>)[]): Promise<SaveConfigReport | undefined> {
  return releaseSetting(s, SAVES.name, connections);
}
