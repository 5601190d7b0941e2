import { useEffect, useRef, useState } from 'react';
import { useBridge } from '../../../bridge/BridgeContext';
import { ProgressBar } from '../../../components/ProgressBar';
import { downloadBlob } from '../../../lib/download';
import { formatBytes, formatFraction } from '../../../lib/format';
import { base64ToBytes } from './valueBytes';
import type { Where } from './viewProps';

type Status = { kind: 'idle' } | { kind: 'running'; got: number; total: number } | { kind: 'saved'; total: number } | { kind: 'incomplete'; got: number; total: number; why: string };

/**
 * The whole string, streamed from the Node side chunk by chunk (GETRANGE) and saved as a file
 * once every byte arrived in order. A stream that ends early, drops a chunk or skips an
 * offset saves nothing and says so: a silently short file is worse than none.
 */
export function DownloadButton({ where, fileName }: { where: Where; fileName: string }) {
  const bridge = useBridge();
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const stop = useRef<(() => void) | undefined>(undefined);
  useEffect(() => () => stop.current?.(), []);

  function start() {
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let got = 0;
    let total = 0;
    let finished = false;
    let broken: string | undefined;
    setStatus({ kind: 'running', got: 0, total: 0 });
    stop.current = bridge.subscribe('keys.download', where, {
      onEvents(events, dropped) {
        if (dropped > 0) broken ??= `${dropped} chunk(s) were dropped on the way`;
        for (const e of events) {
          if (broken !== undefined) break;
          if (e.offset !== got) {
            broken = `a chunk came at byte ${e.offset}, expected ${got}`;
            break;
          }
          const bytes = base64ToBytes(e.chunk) as Uint8Array<ArrayBuffer>;
          chunks.push(bytes);
          got += bytes.length;
          total = e.total;
          if (e.done) finished = true;
        }
        setStatus({ kind: 'running', got, total });
      },
      onEnd(error) {
        stop.current = undefined;
        if (finished && broken === undefined && got === total) {
          downloadBlob(fileName, new Blob(chunks, { type: 'application/octet-stream' }));
          setStatus({ kind: 'saved', total });
        } else {
          const why = broken ?? error?.message ?? (finished ? `got ${got} of ${total} bytes` : 'the stream ended before the last chunk');
          setStatus({ kind: 'incomplete', got, total, why });
        }
      },
    });
  }

  function cancel() {
    stop.current?.();
    stop.current = undefined;
    setStatus((s) => ({ kind: 'incomplete', got: s.kind === 'running' ? s.got : 0, total: s.kind === 'running' ? s.total : 0, why: 'cancelled' }));
  }

  return (
    <span className="kv-download" data-testid="kv-download" data-state={status.kind}>
      {status.kind === 'running' ? (
        <>
          <ProgressBar
            small
            label="Download progress"
            fraction={status.total > 0 ? status.got / status.total : undefined}
            valueText={formatFraction(status.total > 0 ? status.got / status.total : undefined)}
            figure={`${formatBytes(status.got)} of ${status.total > 0 ? formatBytes(status.total) : '…'}`}
          />
          <button type="button" className="btn btn-small" onClick={cancel}>
            Cancel
          </button>
        </>
      ) : (
        <button type="button" className="btn btn-small" onClick={start} data-testid="kv-download-start">
          Download
        </button>
      )}
      {status.kind === 'saved' && <span className="notice">Saved {formatBytes(status.total)}</span>}
      {status.kind === 'incomplete' && (
        <span className="field-error" role="alert" data-testid="kv-download-incomplete">
          Incomplete ({formatBytes(status.got)} of {formatBytes(status.total)}): {status.why}. Nothing was saved.
        </span>
      )}
    </span>
  );
}
