import type { ProfileStore } from '../../core/pool/profileStore';
import type { PoolApi } from '../../core/pool/types';

/** The core services the handlers bind the contract to. */
export interface CoreServices {
  version: string;
  profiles: ProfileStore;
  pool: PoolApi;
}
