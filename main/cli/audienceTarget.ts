import type { AudienceLayout } from '../../app/schemas/audience';
import { audienceServer } from '../core/audience/audienceServer';
import { withCliPool } from './cliPool';
import type { ProfileSpec } from '../core/pool/types';

/**
 * The one server `audience` and `demo-data` run on: a cluster's master serving
 * the layout's hash tag (CLUSTER NODES, through a pool used for that alone), a
 * sentinel profile's current master, or the server the URL names.
 */
export async function audienceTarget(spec: ProfileSpec, layout: Pick<AudienceLayout, 'hashTag'>): Promise<ProfileSpec> {
  return withCliPool(spec, (pool, id) => audienceServer(pool, id, spec, layout, spec.db));
}
