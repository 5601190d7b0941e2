import type { ConfigCell } from '../../../app/schemas/config';
import { cellShown } from './configModel';

const DIFF_TAG = { matters: 'differs · matters', drift: 'differs', expected: 'per node' } as const;

/** One node's value of one parameter, as text; a difference tagged, with its reason written out. */
export function ValueCell({ cell, address }: { cell: ConfigCell | undefined; address: string }) {
  const shown = cellShown(cell);
  const diff = cell?.diff;
  return (
    <td
      className={`cfg-cell cfg-kind-${shown.kind}${diff === undefined ? '' : ` cfg-diff cfg-diff-${diff.kind}`}`}
      data-testid="config-cell"
      data-address={address}
      data-diff={diff?.kind}
    >
      <span className="cfg-value">{shown.text}</span>
      {diff !== undefined && ' '}
      {diff !== undefined && (
        <span className="cfg-why" title={diff.kind === 'expected' ? diff.reason : undefined}>
          <span className="cfg-diff-tag">{DIFF_TAG[diff.kind]}</span>
          {diff.kind !== 'expected' && <span className="cfg-reason"> {diff.reason}</span>}
        </span>
      )}
    </td>
  );
}
