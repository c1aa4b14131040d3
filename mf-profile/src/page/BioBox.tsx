// The bio box (docs/product.md#4-states-and-transitions Bio): a bio over 550 characters is cut with an
// ellipsis until expanded. For those who may edit, the pencil toggles edit mode and the save icon writes the
// bio back, then shows it from the top again (not expanded). A blank bio is refused with the spec's words.
import { refusalOr, useAction } from '@rotunda/ui';
import { Save } from 'lucide-react';
import { useId, useState } from 'react';
import { type Profile, saveBio } from '../api';
import { FormError } from '../common/fields';
import { EditToggle, Panel } from '../common/Panel';
import { BIO_REQUIRED_MESSAGE, bioIsLong, bioPreview } from '../profile-rules';

const FAILED = {
  logged: 'The bio could not be saved',
  shown: 'Your bio could not be saved right now. Please try again in a moment.',
};

interface BioBoxProps {
  profile: Profile;
  canEdit: boolean;
  onSaved: (profile: Profile) => void;
}

export function BioBox({ profile, canEdit, onSaved }: BioBoxProps) {
  const textId = useId();
  const bio = profile.user_bio?.trim() ?? '';
  const [expanded, setExpanded] = useState(false);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(bio);
  const { busy: saving, error, setError, run } = useAction();
  const preview = bioPreview(bio, expanded);

  const toggleEditing = () => {
    setDraft(bio);
    setError(null);
    setEditing((current) => !current);
  };

  const save = () =>
    run(
      async () => {
        const saved = await saveBio(profile.profile_id, draft.trim());
        setEditing(false);
        setExpanded(false);
        onSaved(saved);
      },
      refusalOr(FAILED),
      draft.trim() === '' ? BIO_REQUIRED_MESSAGE : null,
    );

  return (
    <Panel
      title="Bio"
      tools={
        canEdit && (
          <div className="prof-panel__tools">
            {editing && (
              <button
                type="button"
                className="icon-button"
                aria-label="Save bio"
                onClick={save}
                disabled={saving}
              >
                <Save size={18} aria-hidden="true" />
              </button>
            )}
            <EditToggle label="Edit bio" editing={editing} onClick={toggleEditing} />
          </div>
        )
      }
    >
      {editing ? (
        <div className="field">
          <label className="visually-hidden" htmlFor={textId}>
            Bio
          </label>
          <textarea
            id={textId}
            className="field__input prof-textarea"
            rows={10}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            // Focus moves into the text as edit mode opens.
            // biome-ignore lint/a11y/noAutofocus: the member asked to edit this text just now
            autoFocus
          />
          <FormError message={error} />
        </div>
      ) : bio ? (
        <>
          <p id={`${textId}-bio`} className="prof-bio__text">
            {preview.text}
          </p>
          {bioIsLong(bio) && (
            <button
              type="button"
              className="prof-link-button"
              aria-expanded={expanded}
              aria-controls={`${textId}-bio`}
              onClick={() => setExpanded((current) => !current)}
            >
              {expanded ? 'Show less' : 'Show more'}
            </button>
          )}
        </>
      ) : (
        <p className="prof-empty">No bio yet.</p>
      )}
    </Panel>
  );
}
