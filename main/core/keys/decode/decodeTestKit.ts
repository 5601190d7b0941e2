import type { DecodeResult } from '../../../../app/schemas/keys';
import { Pool } from '../../pool/pool';
import type { StoredProfile } from '../../pool/types';
import { keyConnection } from '../keyConnection';
import { decodeKey } from './decodeKey';
import { DecodeRunner } from './decodeRunner';

/** Tests only: keys.decode's core (the profile's key connection, the decode worker) over a real pool, without the dispatcher. */
export function decodeKit(profiles: StoredProfile[]): { decode(profileId: string, key: string, db?: number): Promise<DecodeResult>; close(): Promise<void> } {
  const pool = new Pool({ resolve: (id) => profiles.find((p) => p.id === id), list: () => profiles });
  const runner = new DecodeRunner();
  return {
    async decode(profileId, key, db) {
      const profile = profiles.find((p) => p.id === profileId);
      if (profile === undefined) throw new Error(`no profile ${profileId}`);
      const redis = await keyConnection(pool, profileId, profile.spec, db ?? profile.spec.db);
      return decodeKey(redis, runner, { key: Buffer.from(key), as: 'auto', compression: 'auto' });
    },
    async close() {
      await runner.close();
      await pool.shutdown();
    },
  };
}
