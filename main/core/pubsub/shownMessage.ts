import type { PubSubMessage, ShownBytes } from '../../../app/schemas/pubsub';
import { escapeBytes } from '../text/escapeBytes';
import type { Kept } from './pushReader';
import type { RawMessage } from './subscriberNode';

/** Kept bytes as people read them: escaped like every key and value, with the full length. */
export function shownBytes(k: Kept): ShownBytes {
  return { text: escapeBytes(k.bytes, 0, k.bytes.length).text, bytes: k.length, truncated: k.length > k.bytes.length };
}

const shown = new WeakMap<RawMessage, PubSubMessage>();

/**
 * A message as the contract carries it, escaped once however many viewers it goes
 * to, and only when one is sent it: a dropped message costs no escaping.
 */
export function shownMessage(m: RawMessage): PubSubMessage {
  let out = shown.get(m);
  if (out === undefined) {
    out = { at: m.at, node: m.node, kind: m.kind, channel: shownBytes(m.channel), payload: shownBytes(m.payload) };
    if (m.pattern !== undefined) out.pattern = shownBytes(m.pattern);
    shown.set(m, out);
  }
  return out;
}
