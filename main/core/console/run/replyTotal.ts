import type { CommandDoc, NodeReply, RunResult } from '../../../../app/schemas/console';
import { sumsReplies } from '../catalog/commandPolicy';

type Total = Extract<RunResult, { status: 'done' }>['total'];

/**
 * The total line under several nodes' replies: only where the server itself says the replies
 * add up (COMMAND INFO's `response_policy:agg_sum` tip: DBSIZE), never guessed from a reply's
 * type (a per-node LLEN or a count of one key is not a sum). Summed as BigInt: a 64-bit count
 * does not fit a JS number. Nodes whose reply is not an integer (an error, "Not answered") are
 * left out and counted apart; with no integer at all there is no total.
 */
export function replyTotal(doc: CommandDoc | undefined, replies: readonly Pick<NodeReply, 'reply'>[]): Total {
  if (replies.length < 2 || !sumsReplies(doc)) return undefined;
  let sum = 0n;
  let nodes = 0;
  for (const { reply } of replies) {
    if (reply.t !== 'integer') continue;
    sum += BigInt(reply.v);
    nodes++;
  }
  return nodes === 0 ? undefined : { value: sum.toString(), nodes, of: replies.length };
}
