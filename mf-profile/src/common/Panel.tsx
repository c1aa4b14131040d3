// A section of the profile page: a panel named by its heading, with the heading's tools (edit, add) beside it,
// and the pencil that turns a panel's edit mode on and off.
import { Pencil } from 'lucide-react';
import { type ReactNode, useId } from 'react';

export function Panel({ title, tools, children }: { title: string; tools?: ReactNode; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="panel" aria-labelledby={titleId}>
      <div className="prof-panel__header">
        <h2 id={titleId} className="prof-section-title">
          {title}
        </h2>
        {tools}
      </div>
      {children}
    </section>
  );
}

export function EditToggle({
  label,
  editing,
  onClick,
}: {
  label: string;
  editing: boolean;
  onClick: () => void;
}) {
  return (
    <button type="button" className="icon-button" aria-label={label} aria-pressed={editing} onClick={onClick}>
      <Pencil size={18} aria-hidden="true" />
    </button>
  );
}
