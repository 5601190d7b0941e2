import type { ReplyNode } from '../../../../app/schemas/console';
import { isSecret, MASKED } from '../../text/configSecrets';

const masked: ReplyNode = { t: 'bulk', v: MASKED, bytes: MASKED.length };

/** A name as the reply shows it: the escaped text of a string, else nothing. */
const nameOf = (n: ReplyNode | undefined): string | undefined => (n !== undefined && (n.t === 'bulk' || n.t === 'simple') ? n.v : undefined);

/**
 * CONFIG GET's reply with the values of secret parameters (requirepass, masterauth, TLS key
 * passphrases… the Config page's rule) replaced by `(secret)`: the console shows an ops user
 * any reply, but the profile's own password never reaches the renderer (the security model).
 * RESP3 answers a map, RESP2 a flat array of name, value pairs.
 */
export function maskConfigSecrets(reply: ReplyNode): ReplyNode {
  if (reply.t === 'map') {
    return { ...reply, entries: reply.entries.map(([k, v]) => [k, isSecretName(nameOf(k), v) ? masked : v]) };
  }
  if (reply.t === 'array') {
    return { ...reply, items: reply.items.map((v, i) => (i % 2 === 1 && isSecretName(nameOf(reply.items[i - 1]), v) ? masked : v)) };
  }
  return reply;
}

function isSecretName(name: string | undefined, value: ReplyNode): boolean {
  return name !== undefined && isSecret(name, [nameOf(value) ?? '']);
}
