interface Props {
  busy: boolean;
  /** The element is shown cut: its edit would need the whole of it, which the view does not hold. */
  cut: boolean;
  /** Fill the view's form from this row; absent where a row has nothing to edit (a set member). */
  onEdit?(): void;
  /** The row's id on its Edit button, so the focus can come back to it after the edit (useEditFocus). */
  editRow?: string;
  onDelete(): void;
  deleteLabel?: string;
}

const CUT = 'Too long to change here: the view holds only its first bytes';

/** A row's own edits: fill the form from it, or delete it (each view says what that means). */
export function RowActions({ busy, cut, onEdit, editRow, onDelete, deleteLabel = 'Delete' }: Props) {
  return (
    <span className="kv-row-actions">
      {onEdit !== undefined && (
        <button type="button" className="btn btn-small btn-ghost" disabled={cut} title={cut ? CUT : undefined} onClick={onEdit} data-edit-row={editRow}>
          Edit
        </button>
      )}
      <button
        type="button"
        className="btn btn-small btn-ghost btn-danger-ghost"
        disabled={busy || cut}
        title={cut ? CUT : undefined}
        onClick={onDelete}
        data-testid="kv-row-delete"
      >
        {deleteLabel}
      </button>
    </span>
  );
}
