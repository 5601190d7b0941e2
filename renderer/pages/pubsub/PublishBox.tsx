import { useState } from 'react';
import type { CallOutput } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import { usePermission } from '../../auth/usePermission';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { EscapedField, allTyped } from '../../components/EscapedField';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatCount } from '../../lib/format';

type Published = CallOutput<'pubsub.publish'> & { channel: string };

interface Props {
  profileId: string;
  cluster: boolean;
  /** A channel was published to: the overview counts it even when nobody listens. */
  onPublished(channelB64: string, shard: boolean): void;
}

function Outcome({ r }: { r: Published }) {
  return (
    <p className="ps-published" role="status" data-testid="pubsub-published" data-receivers={r.receivers}>
      <strong>{r.receivers === 0 ? 'No receiver' : `${formatCount(r.receivers)} receiver${r.receivers === 1 ? '' : 's'}`}</strong>{' '}
      <span className="muted">
        {r.command} {r.channel} on {r.node}
        {r.slot !== undefined && ` (slot ${r.slot})`}
        {r.countedOn === 'node' && ': a cluster counts only the receivers connected to the node that took the message, though every node gets it'}
      </span>
    </p>
  );
}

/** PUBLISH (or SPUBLISH) one message, for ops: the receiver count is Redis's own answer. */
export function PublishBox({ profileId, cluster, onPublished }: Props) {
  const bridge = useBridge();
  const may = usePermission('pubsub.publish');
  const [channel, setChannel] = useState('');
  const [payload, setPayload] = useState('');
  const [shard, setShard] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError>();
  const [result, setResult] = useState<Published>();
  const typed = allTyped(channel, payload);

  async function publish() {
    if (typed === undefined) return;
    const [channelB64 = '', payloadB64 = ''] = typed;
    setBusy(true);
    setError(undefined);
    try {
      const r = await bridge.invoke('pubsub.publish', { profileId, channel: channelB64, payload: payloadB64, shard: cluster && shard });
      setResult({ ...r, channel });
      onPublished(channelB64, cluster && shard);
    } catch (e) {
      setError(toAppError(e));
      setResult(undefined);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel ps-publish" aria-labelledby="ps-publish-title" data-testid="pubsub-publish">
      <h2 id="ps-publish-title">Publish</h2>
      {!may.allowed ? (
        <p className="hint" data-testid="pubsub-publish-locked">
          Publishing sends a message to every subscriber of the channel. {may.reason}
        </p>
      ) : (
        <form
          className="ps-publish-form"
          onSubmit={(e) => {
            e.preventDefault();
            void publish();
          }}
        >
          <EscapedField label="Channel" value={channel} onChange={setChannel} testId="pubsub-publish-channel" />
          <EscapedField label="Payload (escapes: \xHH, \n, \\)" value={payload} onChange={setPayload} testId="pubsub-publish-payload" multiline />
          <div className="form-actions">
            {cluster && (
              <label className="ps-check">
                <input type="checkbox" checked={shard} onChange={(e) => setShard(e.target.checked)} data-testid="pubsub-publish-shard" /> Shard channel
                (SPUBLISH)
              </label>
            )}
            <button type="submit" className="btn btn-primary" disabled={busy || typed === undefined || channel === ''} data-testid="pubsub-publish-send">
              {busy ? 'Publishing…' : 'Publish'}
            </button>
          </div>
          <ErrorAlert error={error} title="Not published:" />
          {result !== undefined && <Outcome r={result} />}
        </form>
      )}
    </section>
  );
}
