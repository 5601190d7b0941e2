import { useMemo, type CSSProperties } from 'react';
import type { ReplyNode } from '../../../app/schemas/console';
import { moreText } from './cutText';
import { MeasuredList } from './MeasuredList';
import { replyRows, type ReplyRow } from './replyRows';
import { ReplyValue } from './ReplyValue';

/** Each depth indents by this much. */
const INDENT_PX = 18;

interface Props {
  reply: ReplyNode;
  folded: ReadonlySet<ReplyNode>;
  onToggle(node: ReplyNode): void;
}

/** A reply as a tree of lines, nested aggregates folding; drawn by MeasuredList, so only the lines in view are in the DOM. */
export function ReplyTree({ reply, folded, onToggle }: Props) {
  const rows = useMemo(() => replyRows(reply, folded), [reply, folded]);
  const at = (i: number) => rows[i] as ReplyRow;
  return (
    <MeasuredList
      count={rows.length}
      itemKey={(i) => at(i).key}
      line={(i) => <Line row={at(i)} onToggle={onToggle} />}
      lineStyle={(i) => ({ '--cn-depth': `${at(i).depth * INDENT_PX}px` }) as CSSProperties}
      lineAttrs={(i) => ({ 'data-depth': String(at(i).depth) })}
      label="Reply"
      className="cn-tree"
      testId="console-reply-tree"
    />
  );
}

function Line({ row, onToggle }: { row: ReplyRow; onToggle(node: ReplyNode): void }) {
  if (row.kind === 'more') {
    return (
      <span className="cn-more" data-testid="console-more">
        {moreText(row.more)}
      </span>
    );
  }
  return (
    <>
      {row.foldable ? (
        <button
          type="button"
          className="cn-toggle"
          aria-expanded={!row.folded}
          aria-label={`${row.folded ? 'Unfold' : 'Fold'} ${row.label ?? 'the reply'}`}
          onClick={() => onToggle(row.node)}
          data-testid="console-fold"
        >
          {row.folded ? '▸' : '▾'}
        </button>
      ) : (
        // A lone value needs no room for a toggle; a value among foldable siblings lines up with them.
        row.depth > 0 && <span className="cn-toggle-space" aria-hidden="true" />
      )}
      {row.label !== undefined && (
        <span className="cn-label" style={{ minWidth: `${row.labelWidth ?? 2}ch` }}>
          {row.label}
        </span>
      )}
      {row.mapKey !== undefined && (
        <>
          <ReplyValue node={row.mapKey} />
          <span className="cn-arrow"> =&gt; </span>
        </>
      )}
      <ReplyValue node={row.node} />
    </>
  );
}
