import type { Catalog, CommandDoc } from '../../../../app/schemas/console';

/** The doc of a typed command: the subcommand's ("CONFIG SET") when it has one. Args as typed (any case). */
export function findCommand(catalog: Catalog, args: readonly string[]): CommandDoc | undefined {
  void catalog;
  void args;
  throw new Error('findCommand: not built yet');
}

export interface Held {
  reason: 'dangerous' | 'writesAll' | 'keys';
  /** In words: what the server says of the command, and what to use instead. */
  why: string;
  /** What to type back: the command's name, "FLUSHALL" or "CONFIG SET". */
  confirmWith: string;
}

/**
 * Whether the guard holds a command until typed back, from COMMAND INFO alone (no hand list):
 * @dangerous, or a write the server sends to every shard/node; KEYS only on a DB over 10,000
 * keys. An unknown doc (COMMAND INFO refused) is held: nothing says it is safe.
 */
export function heldFor(doc: CommandDoc | undefined, args: readonly string[], facts: { dbSize?: number }): Held | undefined {
  void doc;
  void args;
  void facts;
  throw new Error('heldFor: not built yet');
}

/** In the @read ACL category: what an analyst may run. */
export function isRead(doc: CommandDoc | undefined): boolean {
  void doc;
  throw new Error('isRead: not built yet');
}

/** Flagged `write`: refused on a read-only profile. */
export function isWrite(doc: CommandDoc | undefined): boolean {
  void doc;
  throw new Error('isWrite: not built yet');
}

/** In @blocking (BLPOP, XREAD…): runs on a dedicated connection. */
export function isBlocking(doc: CommandDoc | undefined): boolean {
  void doc;
  throw new Error('isBlocking: not built yet');
}

/** The server's request_policy tip: where a node-wide command belongs on a cluster. */
export function requestPolicy(doc: CommandDoc | undefined): 'all_shards' | 'all_nodes' | undefined {
  void doc;
  throw new Error('requestPolicy: not built yet');
}

/** Indexes (into args, 0 = the command name) of the keys, from firstKey/lastKey/keyStep; [] for movablekeys (ask COMMAND GETKEYS). */
export function keyIndexes(doc: CommandDoc | undefined, argc: number): number[] {
  void doc;
  void argc;
  throw new Error('keyIndexes: not built yet');
}
