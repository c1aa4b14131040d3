// The author's own tools on a post (the read modal) or a comment: edit, which becomes save while editing, and
// delete. Icon buttons, each named for screen readers.
import { type LucideIcon, Pencil, Trash2 } from 'lucide-react';

interface AuthorToolsProps {
  /** 'post' or 'comment': the buttons are named 'Edit post', 'Save comment'… */
  noun: string;
  className: string;
  /** The comment's smaller buttons. */
  small?: boolean;
  editing: boolean;
  /** The save button's icon while editing. */
  saveIcon: LucideIcon;
  editDisabled: boolean;
  deleteDisabled: boolean;
  onToggleEdit: () => void;
  onDelete: () => void;
}

export function AuthorTools({
  noun,
  className,
  small = false,
  editing,
  saveIcon: SaveIcon,
  editDisabled,
  deleteDisabled,
  onToggleEdit,
  onDelete,
}: AuthorToolsProps) {
  const buttonClass = small ? 'icon-button icon-button--small' : 'icon-button';
  const size = small ? 16 : 18;
  return (
    <span className={className}>
      <button
        type="button"
        className={buttonClass}
        aria-label={`${editing ? 'Save' : 'Edit'} ${noun}`}
        disabled={editDisabled}
        onClick={onToggleEdit}
      >
        {editing ? <SaveIcon size={size} aria-hidden="true" /> : <Pencil size={size} aria-hidden="true" />}
      </button>
      <button
        type="button"
        className={buttonClass}
        aria-label={`Delete ${noun}`}
        disabled={deleteDisabled}
        onClick={onDelete}
      >
        <Trash2 size={size} aria-hidden="true" />
      </button>
    </span>
  );
}
