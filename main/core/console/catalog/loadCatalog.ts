import type { Catalog } from '../../../../app/schemas/console';

/** Send one command to the node asked (an ioredis `call`: RESP2 replies as nested arrays). */
export type NodeCall = (args: string[]) => Promise<unknown>;

/**
 * The node's commands from its own COMMAND DOCS and COMMAND INFO, merged (subcommands
 * named "CONFIG SET"); COMMAND INFO alone, or names alone (COMMAND LIST / COMMAND) when the
 * server or its ACL refuses more, saying why in `note`.
 */
export function loadCatalog(call: NodeCall): Promise<Catalog> {
  void call;
  throw new Error('loadCatalog: not built yet');
}
