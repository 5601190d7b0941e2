import type { ConfigNode } from '../../../app/schemas/config';
import { roleLabel } from '../../lib/nodes';
import { serverTitle } from '../../../app/redis/serverTitle';

interface Props {
  node: ConfigNode;
  /** Ops on an editable profile: the Rewrite button where the node has a config file. */
  onRewrite: ((address: string) => void) | undefined;
  rewriting: boolean;
}

/** A node's column head: address, role and master, whether it was read, and its config file. */
export function NodeHead({ node, onRewrite, rewriting }: Props) {
  const file = node.configFile;
  return (
    <div className="cfg-node" data-testid="config-node" data-address={node.address} data-state={node.state}>
      <span className="mono cfg-node-address">{node.address}</span>
      <span className="cfg-node-role">
        {roleLabel(node.role)}
        {node.master !== undefined && <span className="muted"> of {node.master}</span>}
      </span>
      {node.version !== undefined && (
        <span className="muted cfg-node-server" data-testid="config-node-server">
          {serverTitle(node.server, node.version)}
        </span>
      )}
      {node.state === 'refused' && <span className="tag tag-warn">CONFIG refused</span>}
      {(node.state === 'down' || node.state === 'error') && (
        <span className="cfg-node-error" data-testid="config-node-error">
          {node.state === 'down' ? 'not reached' : 'not read'}: {node.error}
        </span>
      )}
      {file === '' && (
        <span className="muted cfg-node-file" title="Started without a config file: what CONFIG SET changes lasts until it restarts.">
          no config file
        </span>
      )}
      {file !== undefined && file !== '' && (
        <span className="cfg-node-file">
          <span className="muted">file </span>
          <span className="mono">{file}</span>
          {onRewrite !== undefined && (
            <button
              type="button"
              className="btn btn-small"
              disabled={rewriting}
              onClick={() => onRewrite(node.address)}
              data-testid="config-rewrite"
              title="CONFIG REWRITE: write the settings in effect to this file"
            >
              Rewrite
            </button>
          )}
        </span>
      )}
    </div>
  );
}
