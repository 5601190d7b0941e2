import { useState } from 'react';
import type { AppError } from '../../../app/errors';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { formatBytes, formatDuration } from '../../lib/format';
import { CheckField } from '../../components/CheckField';
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
  // A replication link (CLIENT LIST flag S: a replica's, M: this replica's master's) is no ordinary client: killing it asks twice.
  const link = c.kind === 'replica' || c.kind === 'master';
  const [understood, setUnderstood] = useState(false);
  const kill = async () => {
    setBusy(true);
    setError(undefined);
    try {
      // `confirm` repeats the id, and a link's kill says it breaks replication: the server refuses a kill that does not.
      const r = await bridge.invoke('clients.kill', {
        profileId,
        address: row.node,
        id: c.id,
        confirm: c.id,
        ...(link ? { breakReplication: true as const } : {}),
      });
      onClose(r.killed ? `Killed client ${c.id} (${c.addr}) on ${row.node}.` : `Client ${c.id} was no longer on ${row.node}: it left, or was killed already.`);
    } catch (e) {
      setError(toAppError(e));
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      title={`Kill client ${c.id}?`}
      // Its own name: the row's button is "Kill client N", and two buttons of one name cannot be told apart.
      confirmLabel={`Confirm kill of client ${c.id}`}
      busy={busy}
      ready={!link || understood}
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
      {link && (
        <div className="hint hint-warn" role="alert" data-testid="clients-kill-replication">
          <p>
            {c.kind === 'replica'
              ? 'This is a replica’s replication link (flag S). Killing it breaks replication: the replica reconnects and resyncs, a partial resync if the master’s backlog still holds what it missed, otherwise a full sync (the master forks and sends a whole RDB).'
              : 'This is this replica’s link to its master (flag M). Killing it breaks replication: the replica serves stale data until it reconnects, then resyncs, possibly with a full sync (the master forks and sends a whole RDB).'}
          </p>
          <CheckField
            label="I understand that this breaks replication"
            field="understood"
            checked={understood}
            onChange={setUnderstood}
            testId="clients-kill-understood"
          />
        </div>
      )}
    </ConfirmDialog>
  );
}
