import { useCallback, useEffect, useState } from 'react';
import type { AppError } from '../../../../app/errors';
import type { ReadResult } from '../../../../app/schemas/keys';
import { useBridge } from '../../../bridge/BridgeContext';
import { toAppError } from '../../../bridge/toAppError';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatCount } from '../../../lib/format';
import { ValueText } from './ValueText';
import { readPage, type ViewProps } from './viewProps';

type Sample = Extract<ReadResult, { type: 'vectorset' }>;

/** Elements per sample, and the numbers of each vector shown (the full vector can hold thousands). */
const COUNT = 20;
const DIMS = 8;

/**
 * A Redis 8 vector set, read only: VINFO's facts, then a sample of elements (VRANDMEMBER) with the
 * start of each vector (VEMB). Nothing walks a vector set in order, so "Another sample" draws again.
 * A server without the commands says so (UNSUPPORTED) and the metadata above stays the view.
 */
export function VectorSetView({ where, version }: Pick<ViewProps, 'where' | 'version'>) {
  const bridge = useBridge();
  const [sample, setSample] = useState<Sample>();
  const [error, setError] = useState<AppError>();
  const [loading, setLoading] = useState(false);
  const draw = useCallback(() => {
    setLoading(true);
    readPage(bridge, where, { type: 'vectorset', count: COUNT, dims: DIMS })
      .then((r) => {
        setSample(r);
        setError(undefined);
      })
      .catch((e: unknown) => setError(toAppError(e)))
      .finally(() => setLoading(false));
  }, [bridge, where]);
  useEffect(draw, [draw, version]);
  return (
    <div className="kv-view" data-testid="kv-vectorset">
      <ErrorAlert error={error} title="Cannot read the vector set:" />
      {sample !== undefined && (
        <>
          <p className="muted" data-testid="kv-vectorset-facts">
            {formatCount(sample.total)} elements · {sample.dim} dimensions
            {sample.info.length > 0 && ` · ${sample.info.map((p) => `${p.name} ${p.value}`).join(' · ')}`}
          </p>
          <div className="kv-view-bar">
            <span className="muted">
              {sample.members.length} drawn at random (VRANDMEMBER), the first {DIMS} numbers of each vector (VEMB)
            </span>
            <button type="button" className="btn btn-small" onClick={draw} disabled={loading} data-testid="kv-vectorset-again">
              Another sample
            </button>
          </div>
          <table className="data-table" data-testid="kv-rows">
            <thead>
              <tr>
                <th scope="col">Element</th>
                <th scope="col">Vector</th>
              </tr>
            </thead>
            <tbody>
              {sample.members.map((m) => (
                <tr key={m.element.b64}>
                  <td>
                    <ValueText value={m.element} testId="kv-cell-value" />
                  </td>
                  <td className="mono">
                    [{m.vector.map((n) => n.toFixed(4)).join(', ')}
                    {m.vector.length < sample.dim ? ', …' : ''}]
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
