import type { AudienceLayout } from '../../app/schemas/audience';
import { audienceServer } from '../core/audience/audienceServer';
import { Pool } from '../core/pool/pool';
import type { ProfileSpec } from '../core/pool/types';

/**
 * The one server `audience` and `demo-data` run on: a cluster's master serving
 * the layout's hash tag (CLUSTER NODES, through a pool used for that alone), a
 * sentinel profile's current master, or the server the URL names.
 */
export async function audienceTarget(spec: ProfileSpec, layout: Pick<AudienceLayout, 'hashTag'>): Promise<ProfileSpec> {
  const pool = new Pool({ resolve: (id) => (id === 'cli' ? { id, source: 'config', spec } : undefined) });
  try {
    return await audienceServer(pool, 'cli', spec, layout, spec.db);
  } finally {
    await pool.shutdown();
  }
}
