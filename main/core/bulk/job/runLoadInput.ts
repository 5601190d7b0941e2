import type { ProfileSpec } from '../../pool/types';
import type { PreparedLoad } from '../prepareLoad';
import type { ControlLease } from './controlLink';

// Its own file so that runLoad's phases (serverPipe.ts) can name it without importing loadJob.ts back.
/** What prepareLoad settled, plus what only the caller knows: the job, the secret-bearing spec. */
export interface RunLoadInput extends PreparedLoad {
  jobId: string;
  /** With the password: the raw data connection authenticates itself. */
  spec: ProfileSpec;
  /** Where the save-config journal lives (see saveJournal.ts). */
  journalDir: string;
  /** A fresh dedicated connection each call: the control connection, and a spare for cleanup if it dies. */
  control: () => Promise<ControlLease>;
  /** WAIT's timeout. Default 30 s. */
  waitTimeoutMs?: number;
}
