import type { Redis } from 'ioredis';
import type { ConfigSetResult } from '../../../app/schemas/config';
import { toAppErrorFor } from '../pool/redisErrors';
import { reach, type ConfigNodeRef, type NodeAccess } from './configNodes';
import { refusalError } from './configRefusal';
import { configGet, replyPairs } from './readConfig';
import { namesOf, newestListed } from '../text/configAliases';
import { isSecret, MASKED, scrub } from '../text/configSecrets';

/** A value as the audit log quotes it: JSON-escaped (so a newline cannot fake a line), cut past 200 characters. */
function quoted(v: string | undefined): string {
  if (v === undefined) return '(none)';
  return JSON.stringify(v.length > 200 ? `${v.slice(0, 200)}…` : v);
}

export interface NodeSet {
  result: ConfigSetResult;
  /** For the audit log: the old and new values (MASKED for a secret), and Redis's refusal if any. */
  detail: string;
}

/**
 * The name this node takes for the parameter `name` names, and its value there: the newest of
 * the parameter's names (configAliases.ts) the node itself lists. A Config row merged under
 * Valkey's `primaryauth` is `masterauth` on a Redis node beside it, which refuses the name it
 * lacks. `listed`: the node's CONFIG GET of each of those names; none listed: `name` as given.
 */
export function ownName(name: string, listed: ReadonlyMap<string, string>): { name: string; value?: string } {
  const own = newestListed(name.toLowerCase(), listed);
  const value = listed.get(own);
  return value === undefined ? { name } : { name: own, value };
}

/** The node's CONFIG GET of every name `name`'s parameter goes by (one name per call: CONFIG GET of several is 7.0+). */
async function listedOn(redis: Redis, name: string): Promise<Map<string, string>> {
  const replies = await Promise.all(namesOf(name.toLowerCase()).map((n) => redis.call('CONFIG', 'GET', n)));
  return new Map(replies.flatMap((r) => [...replyPairs(r)]));
}

/**
 * CONFIG SET `name` `value` on one node, with CONFIG GET on each side: the value before, and
 * the one Redis keeps (it may normalise: "100mb" reads back "104857600"). Redis validates;
 * its refusal is this node's result, not an exception. A secret's values never leave here:
 * not in the result, not in the detail, not in an error text that might echo one.
 */
export async function setOnNode(access: NodeAccess, ref: ConfigNodeRef, asked: string, value: string): Promise<NodeSet> {
  const { address } = ref;
  const node = await reach(access, address);
  if ('error' in node) return { result: { address, ok: false, error: node.error }, detail: `${asked}: not reached: ${node.error.message}` };
  const { redis } = node;
  let name = asked;
  let before: string | undefined;
  try {
    ({ name, value: before } = ownName(asked, await listedOn(redis, asked)));
  } catch {
    // CONFIG GET refused but SET allowed (an odd ACL): the set goes on under the name asked, the old value unknown.
  }
  const secret = isSecret(name, [value, ...(before === undefined ? [] : [before])]);
  const hidden = secret ? [value, before ?? ''] : [];
  const label = name === asked ? name : `${name} (asked as ${asked})`;
  const change = secret ? `${label}: ${MASKED} → ${MASKED}` : `${label}: ${quoted(before)} → ${quoted(value)}`;
  try {
    await redis.call('CONFIG', 'SET', name, value);
  } catch (err) {
    const e = refusalError(err) ?? toAppErrorFor(redis, err);
    const message = scrub(e.message, hidden);
    return { result: { address, ok: false, error: { code: e.code, message } }, detail: `${change} refused: ${message}` };
  }
  let after: string | undefined;
  try {
    after = await configGet(redis, name);
  } catch {
    after = undefined;
  }
  const normalised = !secret && after !== undefined && after !== value ? ` (reads back ${quoted(after)})` : '';
  return {
    result: {
      address,
      ok: true,
      ...(secret || before === undefined ? {} : { before }),
      ...(secret || after === undefined ? {} : { after }),
    },
    detail: `${change}${normalised}`,
  };
}
