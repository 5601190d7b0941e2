import { useEffect, useState } from 'react';
import type { CallInput, CallOutput } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import { useBridge, useLinkStatus } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';

type PreviewInput = CallInput<'bulk.preview'>;
export type Preview = CallOutput<'bulk.preview'>;

export const PREVIEW_DEBOUNCE_MS = 300;

interface Answer {
  json: string;
  fileId: string;
  preview: Preview | undefined;
  error: AppError | undefined;
}

export interface PreviewState {
  /** The answer for the current input. */
  preview: Preview | undefined;
  error: AppError | undefined;
  /** The input changed and its answer is not in yet. */
  pending: boolean;
  /** The last successful preview of this file, for columns and the table while typing. */
  lastGood: Preview | undefined;
}

/**
 * `bulk.preview` for the current file, format and mapping, once typing pauses
 * for 300 ms. Answers for an input that has since changed are dropped.
 */
export function usePreview(input: PreviewInput | undefined): PreviewState {
  const bridge = useBridge();
  const { epoch } = useLinkStatus();
  const json = input === undefined ? undefined : JSON.stringify(input);
  const [answer, setAnswer] = useState<Answer>();
  const [lastGood, setLastGood] = useState<{ fileId: string; preview: Preview }>();

  useEffect(() => {
    if (json === undefined) return;
    const args = JSON.parse(json) as PreviewInput;
    let alive = true;
    const timer = setTimeout(() => {
      bridge.invoke('bulk.preview', args).then(
        (preview) => {
          if (!alive) return;
          setAnswer({ json, fileId: args.fileId, preview, error: undefined });
          setLastGood({ fileId: args.fileId, preview });
        },
        (e: unknown) => {
          if (alive) setAnswer({ json, fileId: args.fileId, preview: undefined, error: toAppError(e) });
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [bridge, json, epoch]);

  const current = answer !== undefined && answer.json === json;
  return {
    preview: current ? answer.preview : undefined,
    error: current ? answer.error : undefined,
    pending: json !== undefined && !current,
    lastGood: lastGood !== undefined && lastGood.fileId === input?.fileId ? lastGood.preview : undefined,
  };
}
