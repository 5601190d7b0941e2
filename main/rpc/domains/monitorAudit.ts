import type { MonitorFilter } from '../../../app/schemas/monitor';
import type { AuditLog } from '../../core/audit';
import { userKey, type Session } from '../session';
import { auditFor } from './auditTrail';

/** A view closed and opened again within this (a filter unchanged, a pane re-added) stays one row. */
const REOPEN_GRACE_MS = 1500;

interface View {
  trail: ReturnType<typeof auditFor>;
  nodes: string[];
  open: number;
  closing: NodeJS.Timeout | undefined;
}

/** The filter as the Monitor page words it. */
export function filterText(f: MonitorFilter): string {
  const parts = [
    f.commands === undefined || f.commands.length === 0 ? 'all commands' : `commands ${f.commands.join(' ')}`,
    ...(f.keyGlob === undefined ? [] : [`keys ${f.keyGlob}`]),
    ...(f.client === undefined ? [] : [`client ${f.client}`]),
    ...(f.db === undefined ? [] : [`DB ${f.db}`]),
    ...(f.sampleEvery > 1 ? [`1 in ${f.sampleEvery}`] : []),
    f.hideOwn ? "Cacheboard's own hidden" : "Cacheboard's own shown",
  ];
  return parts.join(', ');
}

/**
 * MONITOR on the record as a person sees it: the panes one user watches on one profile
 * with one filter are one view, so one row (with every node and the time watched), not
 * a start and an end per node. A filter change starts a new view: one new row.
 */
export class MonitorAudit {
  private readonly views = new Map<string, View>();

  constructor(
    private readonly log: AuditLog,
    private readonly graceMs = REOPEN_GRACE_MS,
  ) {}

  /** One pane's watch began; call the returned function when it ends. */
  open(session: Session, profileId: string, address: string, filter: MonitorFilter): () => void {
    const key = JSON.stringify([userKey(session), profileId, filter]);
    let view = this.views.get(key);
    if (view === undefined) {
      view = { trail: auditFor(this.log, session, 'monitor', address), nodes: [], open: 0, closing: undefined };
      // Kept only once its start is on the record: a start the log refuses (AUDIT_UNAVAILABLE) leaves no view a later watch would join unrecorded.
      view.trail('started', filterText(filter));
      this.views.set(key, view);
    }
    clearTimeout(view.closing);
    view.closing = undefined;
    view.open += 1;
    if (!view.nodes.includes(address)) view.nodes.push(address);
    const v = view;
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      v.open -= 1;
      if (v.open > 0) return;
      const endedAt = Date.now();
      v.closing = setTimeout(() => {
        this.views.delete(key);
        const n = v.nodes.length;
        v.trail('ok', `watched ${n === 1 ? '' : `${n} nodes: `}${v.nodes.join(', ')}`, { endedAt });
      }, this.graceMs);
      v.closing.unref();
    };
  }
}
