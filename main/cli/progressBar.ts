import type { LoadEvent } from '../../app/schemas/bulk';

const WIDTH = 30;

function human(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

/** One redrawn line on a TTY: bar, percent, records, rate, ETA, errors. */
export function renderProgress(e: Extract<LoadEvent, { kind: 'progress' }>): string {
  const frac = e.bytesTotal ? Math.min(1, e.bytesRead / e.bytesTotal) : 0;
  const filled = Math.round(frac * WIDTH);
  const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
  const eta = e.etaSeconds !== undefined ? ` ETA ${Math.ceil(e.etaSeconds)}s` : '';
  const errs = e.errors > 0 ? ` errors ${e.errors}` : '';
  return `${bar} ${(frac * 100).toFixed(1).padStart(5)}%  ${human(e.records)} records  ${human(e.opsPerSec)} ops/s${eta}${errs}`;
}
