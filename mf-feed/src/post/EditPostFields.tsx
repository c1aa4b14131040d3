// The author's edit form inside the read dialog (the title, the rich-text body, an event's details), and the
// check of what it lacks: loaded when the author first edits, so a reader's dialog (a post's address) never
// downloads the editor's inputs.
import type { Post } from '../api';
import { EventInputs, TitleAndBody } from '../create/PostInputs';
import type { EventFields } from '../create/post-form';

export { missingForEdit } from '../create/post-form';

interface EditPostFieldsProps {
  /** The dialog's ids, by name. */
  id: (name: string) => string;
  post: Post;
  values: EventFields & { title: string };
  event: boolean;
  onField: (field: keyof EventFields | 'title') => (value: string) => void;
  onBody: (body: { html: string; empty: boolean }) => void;
}

export default function EditPostFields({ id, post, values, event, onField, onBody }: EditPostFieldsProps) {
  return (
    <div className="read-post__edit">
      <TitleAndBody
        id={id}
        isNew={false}
        title={values.title}
        onTitle={onField('title')}
        initialHtml={post.post_body}
        onBody={onBody}
      />
      {event && (
        <div className="read-post__edit-event">
          <EventInputs id={id} isNew={false} values={values} onChange={onField} />
        </div>
      )}
    </div>
  );
}
