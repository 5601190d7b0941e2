import type { StreamEvent } from '../../../../app/contract';

type ExportEvent = StreamEvent<'export.progress'>;
export type ExportCounts = Extract<ExportEvent, { kind: 'progress' }>['counts'];

/** An export as the dialog shows it: its counts so far and how it ended. */
export interface ExportView {
  counts: ExportCounts | undefined;
  outcome: 'done' | 'cancelled' | 'failed' | undefined;
  error: string | undefined;
}

export const NO_EXPORT: ExportView = { counts: undefined, outcome: undefined, error: undefined };

export function foldExport(v: ExportView, events: ExportEvent[]): ExportView {
  let out = v;
  for (const e of events) {
    if (e.kind === 'progress') out = { ...out, counts: e.counts };
    else if (e.kind === 'done' || e.kind === 'cancelled') out = { ...out, counts: e.counts, outcome: e.kind };
    else if (e.kind === 'failed') out = { ...out, counts: e.counts ?? out.counts, outcome: 'failed', error: e.error.message };
  }
  return out;
}

/** "1,200 of 5,000 keys · 3.4 MB", and what was skipped. */
export function countsText(c: ExportCounts): string {
  const keys = `${c.keys.toLocaleString('en')}${c.total === null ? '' : ` of ${c.total.toLocaleString('en')}`} keys`;
  return `${keys} · ${bytesText(c.bytes)}`;
}

export function skippedText(c: ExportCounts): string {
  return `Skipped: ${c.vanished.toLocaleString('en')} gone before they were read, ${c.unsupported.toLocaleString('en')} of a type the format cannot hold`;
}

function bytesText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}
