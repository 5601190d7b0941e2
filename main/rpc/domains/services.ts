import type { BulkJobs } from '../../core/bulk/jobManager';
import type { FileRegistry } from '../../core/bulk/fileRegistry';
import type { MetricsHub } from '../../core/metrics/metricsHub';
import type { ProfileStore } from '../../core/pool/profileStore';
import type { PoolApi } from '../../core/pool/types';

export interface BulkServices {
  files: FileRegistry;
  jobs: BulkJobs;
  /** Where the save-config journal lives (restored at the next start after a crash). */
  journalDir: string;
  /** Desktop only: a main-process file dialog returning a path, or null when cancelled. */
  pickFile?: () => Promise<string | null>;
}

/** The core services the handlers bind the contract to. */
export interface CoreServices {
  version: string;
  profiles: ProfileStore;
  pool: PoolApi;
  bulk: BulkServices;
  metrics: MetricsHub;
}
