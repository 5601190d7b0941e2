import type { LoadEvent, LoadReport } from '../../../app/schemas/bulk';
import { currentMasterSpec } from '../pool/sentinels';
import type { PoolApi, ProfileSpec } from '../pool/types';
import { runClusterLoad } from './cluster/clusterLoadJob';
import { runLoad } from './job/loadJob';
import type { PreparedLoad } from './prepareLoad';

/** How a load reaches its servers: one profile's connections in a pool, and the save journal's folder. */
export interface LoadWiring {
  pool: Pick<PoolApi, 'masters' | 'dedicated'>;
  profileId: string;
  journalDir: string;
  /** How a cluster is named in the target: the profile's id in the app, its seeds in the CLI. */
  clusterName: string;
}

/** A load ready to run: the app runs it as a job (one per target), the CLI at once. */
export interface LoadStart {
  cluster: boolean;
  /** "host:port/db", or "cluster:<name>/0": what the job claims, and what the audit log names. */
  target: string;
  run(jobId: string, emit: (e: LoadEvent) => void, signal: AbortSignal): Promise<LoadReport>;
}

/**
 * The servers a load writes, as `startLoad` wants them: a sentinel profile's
 * master as the sentinels name it now (the lock, the save-config journal and
 * the raw pipe all need that one server's address); a cluster or a plain
 * server as it is.
 */
export function loadSpec(profile: ProfileSpec): Promise<ProfileSpec> {
  return currentMasterSpec(profile);
}

/**
 * Cluster or one server: which orchestrator a load runs and its run input,
 * for the app and the CLI alike. `spec` is what loadSpec returned.
 */
export function startLoad(spec: ProfileSpec, prepared: PreparedLoad, w: LoadWiring): LoadStart {
  const { pool, profileId, journalDir } = w;
  if (spec.topology?.kind === 'cluster') {
    return {
      cluster: true,
      target: `cluster:${w.clusterName}/0`,
      run: (jobId, emit, signal) =>
        runClusterLoad(
          {
            ...prepared,
            jobId,
            journalDir,
            masters: () => pool.masters(profileId),
            control: (address) => pool.dedicated(profileId, { purpose: 'bulk', db: 0, address }),
          },
          emit,
          signal,
        ),
    };
  }
  return {
    cluster: false,
    target: `${spec.host}:${spec.port}/${prepared.targetDb}`,
    run: (jobId, emit, signal) =>
      runLoad(
        {
          ...prepared,
          jobId,
          spec,
          journalDir,
          control: () => pool.dedicated(profileId, { purpose: 'bulk', db: prepared.targetDb }),
        },
        emit,
        signal,
      ),
  };
}
