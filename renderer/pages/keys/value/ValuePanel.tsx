import { VectorSetView } from './VectorSetView';
import { useCallback, useMemo, useState } from 'react';
import type { ProfileView } from '../../../../app/schemas/connections';
import { seenOf, type Seen } from '../../../../app/schemas/keys';
import { useCall } from '../../../bridge/useCall';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { MiddleCut } from '../../../components/MiddleCut';
import { formatBytes } from '../../../lib/format';
import { EditError } from './EditError';
import { HashView } from './HashView';
import { KeyActions } from './KeyActions';
import { ListView } from './ListView';
import { MetaSummary } from './MetaSummary';
import { SetView } from './SetView';
import { StreamView } from './StreamView';
import { StringView } from './StringView';
import { useEdit, type EditDone, type EditOp } from './useEdit';
import type { ViewProps } from './viewProps';
import { ZsetView } from './ZsetView';
import './value.css';

export interface ValuePanelProps {
  profile: ProfileView;
  db: number;
  /** The open key's exact bytes, base64. */
  keyB64: string;
  /** The session may edit (ops, and the profile is not read-only). */
  canEdit: boolean;
  /** After an edit that renamed the key (new bytes, base64) or deleted it (null). */
  onKeyChanged(next: string | null): void;
}

/** A file name people can keep, from a key that may hold any bytes. */
function fileNameOf(keyText: string): string {
  const safe = keyText.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);
  return `${safe === '' ? 'value' : safe}.bin`;
}

/** One key: metadata, its value page by page in the views its type has, and (ops) its edits. */
export function ValuePanel({ profile, db, keyB64, canEdit, onKeyChanged }: ValuePanelProps) {
  const where = useMemo(() => ({ profileId: profile.id, db, key: keyB64 }), [profile.id, db, keyB64]);
  const [metaAt, setMetaAt] = useState(() => Date.now());
  const [version, setVersion] = useState(0);
  /** What the view shows of the key, as its edits send it: from the last metadata, or the last edit's answer. */
  const [seen, setSeen] = useState<Seen | null>(null);
  // Every metadata (open, Reload, a reconnect, an edit's answer) reads the value's pages again
  // after it: what the view shows is never older than the `seen` its edits send, so a change
  // between the two is a conflict, never an overwrite.
  const meta = useCall('keys.get', keyB64 === '' ? undefined : where, {
    onData: (data) => {
      setMetaAt(Date.now());
      setSeen(seenOf(data));
      setVersion((v) => v + 1);
    },
  });
  const { refresh } = meta;
  const onDone = useCallback(
    (done: EditDone, op: EditOp) => {
      if (op.op === 'rename') onKeyChanged(op.to);
      else if (op.op === 'delete') onKeyChanged(null);
      else {
        // The key as the edit left it, at once: the next edit must not send what came before it.
        setSeen(seenOf(done.meta));
        setVersion((v) => v + 1);
        refresh();
      }
    },
    [onKeyChanged, refresh],
  );
  const edit = useEdit(where, seen, onDone);
  const reload = () => {
    edit.clear();
    refresh();
  };

  if (keyB64 === '') {
    return (
      <section className="keys-value panel" data-testid="keys-value" data-key="">
        <p className="empty">Pick a key to see its value.</p>
      </section>
    );
  }
  const m = meta.data;
  const props: ViewProps = { where, canEdit, edit, version };
  return (
    <section className="keys-value panel" data-testid="keys-value" data-key={keyB64} data-exists={m === undefined ? undefined : String(m.exists)}>
      <header className="kv-head-bar">
        <h2 className="kv-key mono" title={m?.key.text}>
          {m === undefined ? 'Loading…' : <MiddleCut text={m.key.text} />}
        </h2>
        {m !== undefined && (
          <span className="muted kv-key-bytes">
            {formatBytes(m.key.bytes)} name{m.key.truncated ? ' (shown cut)' : ''}
          </span>
        )}
        <button type="button" className="btn btn-small" onClick={reload} data-testid="kv-refresh">
          Reload
        </button>
      </header>
      <ErrorAlert error={meta.error} title="Could not read the key:" />
      {m !== undefined && !m.exists && (
        <p className="empty" data-testid="kv-missing">
          No such key: it does not exist (or no longer does) in DB {db}.
        </p>
      )}
      {m !== undefined && m.exists && (
        <div className="kv-body" key={keyB64}>
          <MetaSummary meta={m} at={metaAt} />
          {canEdit && <KeyActions edit={edit} keyText={m.key.text} hasTtl={m.ttlMs !== null && m.ttlMs >= 0} />}
          <EditError error={edit.error} onReload={reload} />
          {m.type === 'string' && <StringView {...props} fileName={fileNameOf(m.key.text)} />}
          {m.type === 'hash' && <HashView {...props} fieldTtls={m.fieldTtls} />}
          {m.type === 'list' && <ListView {...props} />}
          {m.type === 'set' && <SetView {...props} />}
          {m.type === 'zset' && <ZsetView {...props} />}
          {m.type === 'stream' && <StreamView {...props} />}
          {m.type === 'other' && m.moduleType === 'vectorset' && <VectorSetView where={where} version={version} />}
          {m.type === 'other' && (
            <p className="hint" data-testid="kv-other-type">
              A {m.moduleType ?? 'unknown'} key (a module's type, or a type newer than this viewer): its value is read only through that type's own commands;
              its type, encoding, memory and DUMP size are above.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
