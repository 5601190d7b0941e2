import { AppError } from '../../../app/errors';
import { eachNode, MAX_CONFIG_NODES, targetNodes, type NodeAccess } from '../../core/config/configNodes';
import { configView } from '../../core/config/configView';
import { readNode } from '../../core/config/readConfig';
import { rewriteOnNode } from '../../core/config/rewriteConfig';
import { isSecret } from '../../core/text/configSecrets';
import { setOnNode } from '../../core/config/setConfig';
import type { StoredProfile } from '../../core/pool/types';
import type { Handlers } from '../handlers';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { sessionProfile } from './sessionProfile';

type ConfigHandlers = Pick<Handlers, 'config.get' | 'config.set' | 'config.rewrite'>;

/**
 * The embedded server is the demo Cacheboard starts for itself (the read-only profile, as
 * keys.edit treats it): its settings are not the user's to change. Refused before any Redis call.
 */
function refuseReadOnly(profile: StoredProfile): void {
  if (profile.source === 'embedded') {
    throw new AppError(
      'READ_ONLY',
      `"${profile.spec.name}" is the read-only embedded server: its configuration cannot be changed here. Add a profile for a server of your own to change its settings.`,
      'profileId',
    );
  }
}

/**
 * CONFIG of a profile's nodes. Reads go over the session's own connections (an analyst's carry
 * the profile's analyst ACL user, which may lack CONFIG: that is a refusal note, not an error);
 * writes are ops-only by the contract, refused on the embedded server, and each node's outcome
 * is an audit entry of its own (action config.set, as a bulk load's save-config change is).
 */
export function configHandlers({ profiles, pool, metrics, audit }: Pick<CoreServices, 'profiles' | 'pool' | 'metrics' | 'audit'>): ConfigHandlers {
  const access = (connectionId: string): NodeAccess => ({
    topology: pool.topology(connectionId),
    list: async () => (await metrics.nodes(connectionId)).filter((n) => n.role !== 'sentinel'),
    connect: (address) => pool.node(connectionId, address),
  });
  return {
    'config.get': async ({ profileId }, { session }) => {
      const nodes = access(sessionProfile(profiles, profileId, session).id);
      const listed = await nodes.list();
      const read = listed.slice(0, MAX_CONFIG_NODES);
      const reads = await eachNode(read, (n) => readNode(nodes, n));
      return configView(reads, nodes.topology, listed.length - read.length);
    },

    'config.set': async ({ profileId, name, value, target }, { session }) => {
      const { id, profile } = sessionProfile(profiles, profileId, session);
      refuseReadOnly(profile);
      const nodes = access(id);
      const results = await eachNode(await targetNodes(nodes, target), async (n) => {
        const trail = auditFor(audit, session, 'config.set', n.address);
        trail('started');
        const { result, detail } = await setOnNode(nodes, n, name, value);
        trail(result.ok ? 'ok' : 'failed', detail);
        return result;
      });
      return { name, secret: isSecret(name, [value]), results };
    },

    'config.rewrite': async ({ profileId, target }, { session }) => {
      const { id, profile } = sessionProfile(profiles, profileId, session);
      refuseReadOnly(profile);
      const nodes = access(id);
      const results = await eachNode(await targetNodes(nodes, target), async (n) => {
        const trail = auditFor(audit, session, 'config.rewrite', n.address);
        trail('started');
        const r = await rewriteOnNode(nodes, n);
        const file = r.configFile === undefined || r.configFile === '' ? 'the config file' : r.configFile;
        trail(r.ok ? 'ok' : 'failed', r.ok ? `rewrote ${file}` : r.error?.message);
        return r;
      });
      return { results };
    },
  };
}
