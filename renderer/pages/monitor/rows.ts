import type { MonitorLine } from '../../../app/schemas/monitor';

/**
 * What one pane's list holds. `seq` numbers every row a pane ever held, one
 * more than the row before it, so a row's place in any window of the buffer is
 * `seq - first.seq` and the list can hold a scrolled-up position while old rows
 * are evicted.
 */
export interface LineRow {
  kind: 'line';
  seq: number;
  line: MonitorLine;
  /** Lower-cased search text, made on the first search that reads it. */
  hay?: string;
}

/** A note in the stream: a gap while the node was away, or a restart of the watch. */
export interface MarkRow {
  kind: 'mark';
  seq: number;
  text: string;
  gap?: { from: number; to: number; reason: string };
}

export type Row = LineRow | MarkRow;
