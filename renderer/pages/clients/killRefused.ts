import type { NodeClients } from '../../../app/schemas/clients';

/**
 * CLIENT KILL refused on every node listed (a managed service, an ACL): the page drops the Kill
 * column, and each node card says why in one line. Refused on some nodes only, the column stays
 * for the others. Its own function so the decision is tested without rendering the page.
 */
export function killRefusedEverywhere(nodes: readonly Pick<NodeClients, 'writeRestrictions'>[] | undefined): boolean {
  return nodes !== undefined && nodes.length > 0 && nodes.every((n) => n.writeRestrictions?.some((r) => r.command === 'CLIENT KILL') === true);
}
