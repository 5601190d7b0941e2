import type { AudienceJobs } from '../../core/audience/audienceJobs';
import type { DemoJobs } from '../../core/audience/demo/demoJobs';
import type { AudienceQueryLinks } from '../../core/audience/queryLinks';
import type { AuditLog } from '../../core/audit/auditLog';
import type { BulkJobs } from '../../core/bulk/jobManager';
import type { FileRegistry } from '../../core/bulk/fileRegistry';
import type { MetricsHub } from '../../core/metrics/metricsHub';
import type { MonitorHub } from '../../core/monitor/monitorHub';
import type { ProfileStore } from '../../core/pool/profileStore';
import type { PoolApi } from '../../core/pool/types';
import type { SamplingJobs } from '../../core/sampling/samplingJobs';
import type { TrialJobs } from '../../core/trials/trialJobs';

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
  sampling: SamplingJobs;
  trials: TrialJobs;
  monitor: MonitorHub;
  /** Append-only record of the jobs that change or expose data. */
  audit: AuditLog;
  /** Audience trials (with their recent reports), demo-data loads, and the connections kept for audience.query. */
  audience: { jobs: AudienceJobs; demo: DemoJobs; queries: AudienceQueryLinks };
}
