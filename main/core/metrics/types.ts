import type { z } from 'zod';
import type { AlertKind, OpsActionName, OpsActionRefused, OpsActionResult, SlowlogEntry, TopologyNode } from '../../../app/schemas/metrics';

/** Output types of the contract's schemas that app/schemas/metrics.ts does not export as types. */
export type TopologyEntry = z.output<typeof TopologyNode>;
export type AlertKindName = z.output<typeof AlertKind>;
export type OpsAction = z.output<typeof OpsActionName>;
export type OpsActionRecord = z.output<typeof OpsActionResult>;
export type OpsActionRefusal = z.output<typeof OpsActionRefused>;
export type SlowlogRecord = z.output<typeof SlowlogEntry>;

/** What one metrics.watch subscriber asks for (WatchInput without the profile id). */
export interface WatchOptions {
  intervalMs: number;
  lagBytesThreshold: number;
  lagSecondsThreshold: number;
}
