import type { Cluster, Redis } from 'ioredis';
import type { Restriction } from '../../../app/schemas/restrictions';
import { mayRun } from '../pool/commandSupport';
import type { OpsAction } from './types';

export const ACTION_COMMAND: Record<OpsAction, string> = { bgsave: 'BGSAVE', bgrewriteaof: 'BGREWRITEAOF' };

/** What the Overview cannot do without each command: the second half of its one line. */
const EFFECT: Record<OpsAction, string> = {
  bgsave: 'no RDB snapshot can be started or timed from here',
  bgrewriteaof: 'no AOF rewrite can be started or timed from here',
};

/** `command` (the action's own, or the INFO that times it) refused: what the page cannot do. */
export function actionRestriction(action: OpsAction, command: string = ACTION_COMMAND[action]): Restriction {
  return { command, effect: EFFECT[action] };
}

/**
 * The actions `redis` may not run, asked before the page offers them (ACL DRYRUN, else COMMAND
 * INFO, else the profile's remembered refusal): a managed service renames BGSAVE and
 * BGREWRITEAOF away, an ACL user without @admin or @dangerous is refused them and the INFO that
 * times them. One line per action, naming the first command it lacks.
 */
export async function actionRestrictions(redis: Redis | Cluster, profile: string, only?: OpsAction): Promise<Restriction[]> {
  const actions = only === undefined ? (Object.keys(ACTION_COMMAND) as OpsAction[]) : [only];
  const info = await mayRun(redis, ['INFO', 'persistence'], profile);
  const may = await Promise.all(actions.map((a) => mayRun(redis, [ACTION_COMMAND[a]], profile)));
  return actions.flatMap((a, i) => (!info ? [actionRestriction(a, 'INFO')] : may[i] === false ? [actionRestriction(a)] : []));
}
