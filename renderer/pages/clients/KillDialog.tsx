import { useState } from 'react';
import type { AppError } from '../../../app/errors';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { formatBytes, formatDuration } from '../../lib/format';
import { ConfirmDialog } from './ConfirmDialog';
import type { Row } from './rows';

interface Props {
  profileId: string;
  row: Row;
  /** Closed: with what happened, in words, once the kill ran. */
  onClose(outcome: string | undefined): void;
}

/** CLIENT KILL ID, asked first: the dialog names the client (id, address, name, user, what it ran) and its node. */
export function KillDialog({ profileId, row, onClose }: Props) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError>();
  const c = row.c;
  const kill = async () => {
    setBusy(true);
    setError(undefined);
    try {
      // `confirm` repeats the id: the server refuses a kill that does not.
      const r = await bridge.invoke('clients.kill', { profileId, address: row.node, id: c.id, confirm: c.id });
      onClose(r.killed ? `Killed client ${c.id} (${c.addr}) on ${row.node}.` : `Client ${c.id} was no longer on ${row.node}: it left, or was killed already.`);
    } catch (e) {
      setError(toAppError(e));
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={`Kill client ${c.id}?`}
      confirmLabel={`Kill client ${c.id}`}
      busy={busy}
      error={error}
      onConfirm={() => void kill()}
      onClose={() => onClose(undefined)}
      testId="clients-kill-dialog"
    >
      <p>
        <code>CLIENT KILL ID {c.id}</code> on <span className="mono">{row.node}</span> closes this connection at once; whatever it was waiting for is lost, and
        the application behind it may reconnect.
      </p>
      <dl className="cl-facts" data-testid="clients-kill-who">
        <dt>Address</dt>
        <dd className="mono">{c.addr}</dd>
        <dt>Name</dt>
        <dd className="mono">{c.name === '' ? '(none)' : c.name}</dd>
        <dt>User</dt>
        <dd className="mono">{c.user}</dd>
        <dt>Last command</dt>
        <dd className="mono">{c.cmd}</dd>
        <dt>Connected</dt>
        <dd>
          {formatDuration(c.age)}, idle {formatDuration(c.idle)}, {formatBytes(c.totMem)}
        </dd>
      </dl>
      {c.marks.includes('ours') && (
        <p className="hint hint-warn">This is one of Cacheboard’s own connections: the page or job using it will reconnect or stop.</p>
      )}
      {c.kind === 'replica' && <p className="hint hint-warn">This is a replica’s link: it reconnects and may need a full resync.</p>}
      {c.kind === 'master' && <p className="hint hint-warn">This is the link to this replica’s master: replication stops until it reconnects.</p>}
    </ConfirmDialog>
  );
}
