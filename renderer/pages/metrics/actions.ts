import type { z } from 'zod';
import type { OpsActionName, OpsActionResult } from '../../../app/schemas/metrics';
import { formatSecondsShort } from '../../lib/display';
import { formatBytes } from '../../lib/format';

export type ActionName = z.output<typeof OpsActionName>;
export type ActionResult = z.output<typeof OpsActionResult>;

export const ACTION_LABELS: Record<ActionName, string> = {
  bgsave: 'BGSAVE',
  bgrewriteaof: 'AOF rewrite',
};

/** What the confirm step says before forking a production node. */
export const ACTION_WARNINGS: Record<ActionName, string> = {
  bgsave: 'forks the server to write an RDB snapshot. The fork pauses the node briefly and copy-on-write can grow its memory while writes continue.',
  bgrewriteaof: 'forks the server to rewrite the append-only file. The fork pauses the node briefly and the rewrite competes for disk with the live AOF.',
};

/** "BGSAVE 4.1 s, 158 MB": one result, as the summary line and the table read it. */
export function describeResult(r: ActionResult): string {
  const size = r.sizeBytes === undefined ? '' : `, ${formatBytes(r.sizeBytes)}`;
  return `${ACTION_LABELS[r.action]} ${formatSecondsShort(r.seconds)}${size}`;
}

/** The newest result of each action, newest first: "BGSAVE 4.1 s, 158 MB · AOF rewrite 10.2 s, 440 MB". */
export function latestSummary(actions: readonly ActionResult[]): string {
  const seen = new Set<ActionName>();
  const parts: string[] = [];
  for (const r of [...actions].sort((a, b) => b.startedAt - a.startedAt)) {
    if (seen.has(r.action)) continue;
    seen.add(r.action);
    parts.push(describeResult(r));
  }
  return parts.join(' · ');
}

/** Redis answers "ok" / "err" in INFO; the server may pass other words through. */
export function isOkStatus(status: string): boolean {
  return /^(ok|done|success)$/i.test(status.trim());
}

export function runKey(address: string, action: ActionName): string {
  return `${action} ${address}`;
}
