import type { PageOp } from './actionForm';
import { OP_WORDS } from './actionText';
import './actions.css';

const OPS: readonly PageOp[] = ['delete', 'expire', 'persist'];

interface Props {
  /** What the buttons act on, said before them: "user:*", "the 42 listed". */
  what: string;
  onAction(op: PageOp): void;
  /** Test ids `<prefix>-delete`, `-expire`, `-persist`. */
  testIdPrefix: string;
}

/** "Delete…", "Set TTL…", "Persist…" for every key of a folder or a list: each opens the dry run first. */
export function ActionButtons({ what, onAction, testIdPrefix }: Props) {
  return (
    <div className="ka-buttons" role="group" aria-label={`Bulk actions on ${what}`} data-testid={testIdPrefix}>
      {OPS.map((op) => (
        <button
          key={op}
          type="button"
          className={`btn btn-small${op === 'delete' ? ' btn-danger-ghost' : ''}`}
          onClick={() => onAction(op)}
          title={`${OP_WORDS[op].title} matching ${what}: a dry run first`}
          data-testid={`${testIdPrefix}-${op}`}
        >
          {OP_WORDS[op].button}
        </button>
      ))}
    </div>
  );
}
