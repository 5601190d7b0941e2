import type { BufferLimit, BufferLimits, ClientKind } from '../../../app/schemas/clients';

const CLASSES: Record<string, keyof BufferLimits> = { normal: 'normal', slave: 'replica', replica: 'replica', pubsub: 'pubsub' };

/**
 * CONFIG GET client-output-buffer-limit's value, `normal 0 0 0 slave 268435456 67108864 60
 * pubsub 33554432 8388608 60` (bytes: CONFIG GET gives numbers, never `256mb`), per class.
 * Undefined when it does not read as three classes of three numbers each.
 */
export function parseBufferLimits(value: string): BufferLimits | undefined {
  const tokens = value.trim().split(/\s+/);
  if (tokens.length % 4 !== 0) return undefined;
  const out: Partial<BufferLimits> = {};
  for (let i = 0; i < tokens.length; i += 4) {
    const cls = CLASSES[(tokens[i] ?? '').toLowerCase()];
    const nums = tokens.slice(i + 1, i + 4).map((t) => (/^[0-9]{1,20}$/.test(t) ? Number(t) : NaN));
    if (cls === undefined || nums.some((n) => !Number.isFinite(n))) return undefined;
    const [hardBytes = 0, softBytes = 0, softSeconds = 0] = nums;
    out[cls] = { hardBytes, softBytes, softSeconds };
  }
  const { normal, replica, pubsub } = out;
  return normal === undefined || replica === undefined || pubsub === undefined ? undefined : { normal, replica, pubsub };
}

/** The limit a buffer is cut at first: the lower of the soft and hard limits set (0 is no limit). */
export function firstLimit(l: BufferLimit): number | undefined {
  const set = [l.hardBytes, l.softBytes].filter((n) => n > 0);
  return set.length === 0 ? undefined : Math.min(...set);
}

/** The class a client's output buffer is held to: Redis holds a master link (flag M) to the normal class. */
export function limitOf(limits: BufferLimits, kind: ClientKind): BufferLimit {
  return kind === 'master' ? limits.normal : limits[kind];
}
