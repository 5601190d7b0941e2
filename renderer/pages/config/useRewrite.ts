import { useState } from 'react';
import type { ConfigRewriteResult } from '../../../app/schemas/config';
import type { AppError } from '../../../app/errors';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';

export interface Rewrite {
  running: boolean;
  results: ConfigRewriteResult[] | undefined;
  error: AppError | undefined;
  /** One node, or every node (`undefined`). */
  run(address: string | undefined): void;
}

/** CONFIG REWRITE through the contract: each node's outcome, its failure explained by the server. */
export function useRewrite(profileId: string): Rewrite {
  const bridge = useBridge();
  const [running, setRunning] = useState(false);
  const [results, setResults] = useState<ConfigRewriteResult[]>();
  const [error, setError] = useState<AppError>();
  const run = (address: string | undefined) => {
    if (running) return;
    setRunning(true);
    setError(undefined);
    bridge
      .invoke('config.rewrite', { profileId, target: address === undefined ? { scope: 'every' } : { scope: 'node', address } })
      .then(
        (out) => setResults(out.results),
        (e: unknown) => setError(toAppError(e)),
      )
      .finally(() => setRunning(false));
  };
  return { running, results, error, run };
}
