import type { KeyType } from '../../app/schemas/sampling';

/** One colour per Redis type, the same on every page that draws types (Sampling, Keys); styles.css holds each theme's shade. */
export const TYPE_COLORS: Record<KeyType, string> = {
  string: 'var(--type-string)',
  hash: 'var(--type-hash)',
  list: 'var(--type-list)',
  set: 'var(--type-set)',
  zset: 'var(--type-zset)',
  stream: 'var(--type-stream)',
  other: 'var(--type-other)',
};
