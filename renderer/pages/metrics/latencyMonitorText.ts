import type * as z from 'zod';
import type { LatencyMonitorStatus } from '../../../app/schemas/metrics';
import { clock } from '../../lib/display';

type Status = z.output<typeof LatencyMonitorStatus>;

/** "14:05" in the viewer's time zone. */
export function hhmm(t: number): string {
  return clock(t).slice(0, 5);
}

/**
 * The panel's one line on whether `address` records latency events. A refused CONFIG GET is
 * "cannot tell", never "off": LATENCY LATEST's empty table then says nothing about the threshold.
 */
export function monitorLine(status: Status, address: string): string {
  if (status.thresholdMs === undefined) {
    const why = status.restriction === undefined ? 'the server did not say' : `${status.restriction.command} refused`;
    return `Cannot tell whether latency monitoring is on: ${why}.`;
  }
  if (status.thresholdMs === 0) return 'Latency monitoring is off (latency-monitor-threshold 0): nothing is recorded.';
  const timed = status.timed?.address === address ? status.timed : undefined;
  const until = timed === undefined ? '' : `, until ${hhmm(timed.until)} (was ${timed.previousMs})`;
  return `Latency monitoring is on: records events over ${status.thresholdMs} ms${until}.`;
}

/** How the last turn-on on `address` ended, when it did: put back, or left as someone else set it. */
export function endedLine(status: Status, address: string): string | undefined {
  const ended = status.ended;
  if (ended === undefined || ended.address !== address) return undefined;
  if (ended.error !== undefined)
    return `At ${hhmm(ended.at)} latency-monitor-threshold could not be put back to ${ended.previousMs} (${ended.error}): it may still be on.`;
  if (ended.restored) return `Put back to ${ended.previousMs} at ${hhmm(ended.at)}.`;
  const found = ended.foundMs === undefined ? 'something else' : String(ended.foundMs);
  return `At ${hhmm(ended.at)} latency-monitor-threshold was ${found}, set by someone else meanwhile: left as it is, not put back to ${ended.previousMs}.`;
}
