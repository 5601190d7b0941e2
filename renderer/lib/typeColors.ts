import type { KeyType } from '../../app/schemas/sampling';

/** One colour per Redis type, the same on every page that draws types (Sampling, Keys). */
export const TYPE_COLORS: Record<KeyType, string> = {
  string: '#2456d3',
  hash: '#1f8a4c',
  list: '#c46a00',
  set: '#8a3ffc',
  zset: '#d12771',
  stream: '#0f8b8d',
  other: '#6b7280',
};
