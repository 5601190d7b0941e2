import type { AudienceEvent, DemoEvent } from '../../app/schemas/audience';
import type { LoadEvent, ReplicaLag } from '../../app/schemas/bulk';
import type { KeyActionEvent } from '../../app/schemas/keyActions';
import type { SamplingEvent } from '../../app/schemas/sampling';
import type { TrialEvent } from '../../app/schemas/trials';

const WIDTH = 30;

function human(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

/** The bar and percent that start every progress line. */
function bar(frac: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, frac)) * WIDTH);
  return `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)} ${(frac * 100).toFixed(1).padStart(5)}%`;
}

/** One redrawn line on a TTY: bar, percent, records, rate, ETA, errors. */
export function renderProgress(e: Extract<LoadEvent, { kind: 'progress' }>): string {
  const frac = e.bytesTotal ? Math.min(1, e.bytesRead / e.bytesTotal) : 0;
  const eta = e.etaSeconds !== undefined ? ` ETA ${Math.ceil(e.etaSeconds)}s` : '';
  const errs = e.errors > 0 ? ` errors ${e.errors}` : '';
  return `${bar(frac)}  ${human(e.records)} records  ${human(e.opsPerSec)} ops/s${eta}${errs}${replicaLagText(e)}`;
}

/** The replica furthest behind (the line has room for one), or why lag is unknown. */
function replicaLagText(e: Extract<LoadEvent, { kind: 'progress' }>): string {
  if (e.replicasUnknown !== undefined) return `  replica lag not available: ${e.replicasUnknown}`;
  const worst = (e.replicas ?? []).reduce<ReplicaLag | undefined>((w, r) => (w === undefined || r.lagBytes > w.lagBytes ? r : w), undefined);
  if (worst === undefined) return '';
  const others = (e.replicas?.length ?? 0) + (e.replicasMore ?? 0) - 1;
  return `  replica ${worst.addr} lag ${human(worst.lagBytes)}B ${worst.lagSeconds}s${others > 0 ? ` (+${others})` : ''}`;
}

/** A sample's or census's line: keys examined of the target (a census's target is DBSIZE at the start). */
export function renderSamplingProgress(e: Extract<SamplingEvent, { kind: 'progress' }>): string {
  const frac = e.target > 0 ? Math.min(1, e.examined / e.target) : 0;
  return `${bar(frac)}  ${human(e.examined)} keys  ${human(e.keysPerSec)} keys/s`;
}

/** A trial's line: commands of the whole run (sweep included), the step running and its rate. */
export function renderTrialProgress(e: Extract<TrialEvent, { kind: 'progress' }>): string {
  const frac = e.total > 0 ? Math.min(1, e.done / e.total) : 0;
  return `${bar(frac)}  ${e.step}  ${human(e.opsPerSec)} ops/s`;
}

/** An audience trial's line: the strategy running, warm-up or timed, run n of K. */
export function renderAudienceProgress(e: Extract<AudienceEvent, { kind: 'progress' }>): string {
  return `${bar(e.runs > 0 ? e.run / e.runs : 0)}  ${e.strategy} ${e.phase} ${e.run}/${e.runs}`;
}

/** A demo-data load's line: users generated and sent of the total, commands answered per second. */
export function renderDemoProgress(e: Extract<DemoEvent, { kind: 'progress' }>): string {
  return `${bar(e.total > 0 ? e.done / e.total : 0)}  ${human(e.done)} users  ${human(e.commandsPerSec)} commands/s`;
}

/** A bulk key action's line: the keys walked of DBSIZE, matched and acted, the rate, ETA, and why it waits when the pacer holds it. */
export function renderKeyActionProgress(e: Extract<KeyActionEvent, { kind: 'progress' }>): string {
  const c = e.counts;
  const eta = e.etaSeconds === null ? '' : ` ETA ${Math.ceil(e.etaSeconds)}s`;
  const errs = c.errors > 0 ? ` errors ${c.errors}` : '';
  const paused = e.paused === null ? '' : `  paused: ${e.paused.detail}`;
  return `${bar(c.total > 0 ? c.scanned / c.total : 0)}  ${human(c.matched)} matched  ${human(c.acted)} acted  ${human(e.rate)} keys/s${eta}${errs}${paused}`;
}
