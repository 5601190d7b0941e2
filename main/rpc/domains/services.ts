import type { StartupCleanup } from '../../../app/schemas/bulk';
import type { AudienceQueryLinks } from '../../core/audience/queryLinks';
import type { AuditLog } from '../../core/audit';
import type { ConsoleServices } from '../../core/console/run/consoleServices';
import type { FileRegistry } from '../../core/bulk/fileRegistry';
import type { Jobs } from '../../core/jobKinds';
import type { MetricsHub } from '../../core/metrics';
import type { MonitorHub } from '../../core/monitor';
import type { ProfileStore } from '../../core/pool/profileStore';
import type { PubSubHub } from '../../core/pubsub';
import type { PoolApi } from '../../core/pool/types';

export interface BulkServices {
  files: FileRegistry;
  /** Where the save-config journal lives (restored at the next start after a crash). */
  journalDir: string;
  /** Desktop only: a main-process file dialog returning a path, or null when cancelled. */
  pickFile?: () => Promise<string | null>;
  /** What the cleanup at start put right (main/startupLeftovers.ts), for the Bulk load page. */
  leftovers?: () => StartupCleanup[];
}

/** The core services the handlers bind the contract to. */
export interface CoreServices {
  version: string;
  profiles: ProfileStore;
  pool: PoolApi;
  bulk: BulkServices;
  metrics: MetricsHub;
  /** Every kind of long job (loads, samples, trials, audience trials, demo loads): running and recent. */
  jobs: Jobs;
  monitor: MonitorHub;
  /** Pub/Sub subscriber connections, one per node and connection id, shared by its viewers. */
  pubsub: PubSubHub;
  /** Append-only record of the jobs that change or expose data. */
  audit: AuditLog;
  /** The connections kept for audience.query. */
  audience: { queries: AudienceQueryLinks };
  /** The Console page's connections (per user and console), history and reply downloads. */
  console: ConsoleServices;
  /** Desktop only: the main process's save dialog, suggesting `fileName`; null when cancelled. */
  pickSaveFile?: (fileName: string) => Promise<string | null>;
}
