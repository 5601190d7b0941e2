import type { ConfigSetResult } from '../../../app/schemas/config';
import { toAppErrorFor } from '../pool/redisErrors';
import { reach, type ConfigNodeRef, type NodeAccess } from './configNodes';
import { refusalError } from './configRefusal';
import { configGet } from './readConfig';
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
 * CONFIG SET `name` `value` on one node, with CONFIG GET on each side: the value before, and
 * the one Redis keeps (it may normalise: "100mb" reads back "104857600"). Redis validates;
 * its refusal is this node's result, not an exception. A secret's values never leave here:
 * not in the result, not in the detail, not in an error text that might echo one.
 */
export async function setOnNode(access: NodeAccess, ref: ConfigNodeRef, name: string, value: string): Promise<NodeSet> {
  const { address } = ref;
  const node = await reach(access, address);
  if ('error' in node) return { result: { address, ok: false, error: node.error }, detail: `${name}: not reached: ${node.error.message}` };
  const { redis } = node;
  let before: string | undefined;
  try {
    before = await configGet(redis, name);
  } catch {
    // CONFIG GET refused but SET allowed (an odd ACL): the set goes on, the old value unknown.
  }
  const secret = isSecret(name, [value, ...(before === undefined ? [] : [before])]);
  const hidden = secret ? [value, before ?? ''] : [];
  const change = secret ? `${name}: ${MASKED} → ${MASKED}` : `${name}: ${quoted(before)} → ${quoted(value)}`;
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
