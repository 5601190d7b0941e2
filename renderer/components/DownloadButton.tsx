import { useEffect, useRef, useState } from 'react';
import type { StreamInput } from '../../app/contract';
import type { AppError } from '../../app/errors';
import type { DownloadEvent } from '../../app/schemas/keys';
import { base64ToBytes } from '../../app/keyText';
import { useBridge } from '../bridge/BridgeContext';
import { downloadBlob } from '../lib/download';
import { formatBytes, formatFraction } from '../lib/format';
import { ProgressBar } from './ProgressBar';
import './download.css';

/** The streams that send a file's bytes as DownloadEvents: a string value, a console reply past its display bound. */
export type DownloadSource =
  { stream: 'keys.download'; input: StreamInput<'keys.download'> } | { stream: 'console.download'; input: StreamInput<'console.download'> };

type Status =
  | { kind: 'idle' }
  | { kind: 'running'; got: number; total: number }
  | { kind: 'saved'; total: number }
  | { kind: 'incomplete'; got: number; total: number; why: string };

interface Props {
  source: DownloadSource;
  fileName: string;
  /** Prefix of the test ids: `<testId>`, `<testId>-start`, `<testId>-incomplete`. */
  testId?: string;
}

/**
 * A whole file, streamed from the Node side chunk by chunk (a string by GETRANGE, a reply
 * from its file) and saved once every byte arrived in order. A stream that ends early,
 * drops a chunk or skips an offset saves nothing and says so: a silently short file is
 * worse than none.
 */
export function DownloadButton({ source, fileName, testId = 'kv-download' }: Props) {
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
    const handlers = {
      onEvents(events: DownloadEvent[], dropped: number) {
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
      onEnd(error?: AppError) {
        stop.current = undefined;
        if (finished && broken === undefined && got === total) {
          downloadBlob(fileName, new Blob(chunks, { type: 'application/octet-stream' }));
          setStatus({ kind: 'saved', total });
        } else {
          const why = broken ?? error?.message ?? (finished ? `got ${got} of ${total} bytes` : 'the stream ended before the last chunk');
          setStatus({ kind: 'incomplete', got, total, why });
        }
      },
    };
    stop.current = bridge.subscribe(source.stream, source.input, handlers);
  }

  function cancel() {
    stop.current?.();
    stop.current = undefined;
    setStatus((s) => ({ kind: 'incomplete', got: s.kind === 'running' ? s.got : 0, total: s.kind === 'running' ? s.total : 0, why: 'cancelled' }));
  }

  return (
    <span className="download" data-testid={testId} data-state={status.kind}>
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
        <button type="button" className="btn btn-small" onClick={start} data-testid={`${testId}-start`}>
          Download
        </button>
      )}
      {status.kind === 'saved' && <span className="notice">Saved {formatBytes(status.total)}</span>}
      {status.kind === 'incomplete' && (
        <span className="field-error" role="alert" data-testid={`${testId}-incomplete`}>
          Incomplete ({formatBytes(status.got)} of {formatBytes(status.total)}): {status.why}. Nothing was saved.
        </span>
      )}
    </span>
  );
}
