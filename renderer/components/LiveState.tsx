import { useLinkStatus } from '../bridge/BridgeContext';
import { clock } from '../lib/display';

/** The link to the Cacheboard server was lost: when, and the last word heard before. */
export interface LinkLost {
  lostAt: number;
  /** What the pages show is as of this time (the last message received). */
  asOf: number;
}

/**
 * Whether the link to the Node side, once open, is lost now. Every live figure on
 * a page is then the last one heard, not the present: pages must say so rather than
 * keep showing their last green state.
 */
export function useLinkLost(): LinkLost | undefined {
  const link = useLinkStatus();
  if (link.state !== 'reconnecting' || link.lostAt === undefined) return undefined;
  return { lostAt: link.lostAt, asOf: link.lastHeardAt ?? link.lostAt };
}

/** "as of 10:21:04": a live figure that is no longer live. */
export function AsOf({ at, className }: { at: number; className?: string }) {
  return (
    <span className={`as-of${className === undefined ? '' : ` ${className}`}`} data-testid="as-of" data-at={at}>
      as of {clock(at)}
    </span>
  );
}
