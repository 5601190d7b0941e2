import { restrictionLine, type Restriction } from '../../app/schemas/restrictions';

/**
 * What the server refused (a managed service's disabled command, an ACL user without @admin or
 * @dangerous) and what the page leaves out because of it: one line each, a status, never an
 * error alert. `where` names the nodes a line is about, when the page shows several.
 */
export function RestrictionNotice({ restrictions }: { restrictions: readonly (Restriction & { where?: string })[] }) {
  if (restrictions.length === 0) return null;
  return (
    <div className="hint restriction-notice" role="status" data-testid="restrictions">
      {restrictions.map((r) => (
        <p key={`${r.command} ${r.effect}`} data-command={r.command}>
          {restrictionLine(r)}
          {r.where !== undefined && <span className="muted"> ({r.where})</span>}
        </p>
      ))}
    </div>
  );
}

/** The restrictions of several nodes as one line each, naming the nodes that share it. */
export function mergeRestrictions(
  byNode: readonly { address: string; restrictions?: readonly Restriction[] | undefined }[],
): (Restriction & { where: string })[] {
  const lines = new Map<string, Restriction & { nodes: string[] }>();
  for (const n of byNode) {
    for (const r of n.restrictions ?? []) {
      const key = `${r.command}\n${r.effect}`;
      const line = lines.get(key) ?? { ...r, nodes: [] };
      line.nodes.push(n.address);
      lines.set(key, line);
    }
  }
  return [...lines.values()].map(({ nodes, ...r }) => ({ ...r, where: nodes.join(', ') }));
}
