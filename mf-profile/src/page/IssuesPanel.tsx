// The issues panel (docs/product.md#2-screens-and-routes, #4-states-and-transitions, #5-validation-rules):
// the profile's issue areas, and a link to the state legislature's bill site. Those who may edit toggle edit
// mode, which adds issues (suggestions without those already assigned; a new name is made an issue area; 'You
// already cover this issue.' for one already there) and removes them.
import { NewTabLink, refusalOr } from '@rotunda/ui';
import { X } from 'lucide-react';
import { useState } from 'react';
import { addIssueArea, addUserIssue, deleteUserIssue, type UserIssue } from '../api';
import { FormError } from '../common/fields';
import { type IssueChoice, IssueInput } from '../common/IssueInput';
import { EditToggle, Panel } from '../common/Panel';
import { useIssues } from '../common/useIssues';
import { BILL_SITE_URL, DUPLICATE_ISSUE_MESSAGES } from '../profile-rules';

interface IssuesPanelProps {
  profileId: number;
  issues: readonly UserIssue[];
  canEdit: boolean;
  onChange: (issues: UserIssue[]) => void;
}

const lineForRemoval = refusalOr({
  logged: 'The issue could not be removed',
  shown: 'The issue could not be removed right now. Please try again.',
});

const byName = (a: UserIssue, b: UserIssue) =>
  a.IssueArea.issue_name.localeCompare(b.IssueArea.issue_name, 'en-US');

export function IssuesPanel({ profileId, issues, canEdit, onChange }: IssuesPanelProps) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const allIssues = useIssues();

  const add = async ({ name, issue }: IssueChoice) => {
    const area = issue ?? (await addIssueArea(name));
    const added = await addUserIssue(profileId, area.issue_id);
    onChange([...issues, { ...added, IssueArea: added.IssueArea ?? area }].sort(byName));
  };

  const remove = async (userIssue: UserIssue) => {
    setRemoving(userIssue.id);
    setError(null);
    try {
      await deleteUserIssue(userIssue.id);
      onChange(issues.filter((other) => other.id !== userIssue.id));
    } catch (failure) {
      setError(lineForRemoval(failure));
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Panel
      title="Issues"
      tools={
        canEdit && (
          <EditToggle
            label="Edit issues"
            editing={editing}
            onClick={() => {
              setEditing((current) => !current);
              setError(null);
            }}
          />
        )
      }
    >
      {issues.length === 0 ? (
        <p className="prof-empty">No issue areas listed yet.</p>
      ) : (
        <ul className="prof-chips" aria-label="Issue areas">
          {issues.map((userIssue) => (
            <li key={userIssue.id} className="prof-chip">
              {userIssue.IssueArea.issue_name}
              {canEdit && editing && (
                <button
                  type="button"
                  className="prof-chip__remove"
                  aria-label={`Remove ${userIssue.IssueArea.issue_name}`}
                  disabled={removing === userIssue.id}
                  onClick={() => remove(userIssue)}
                >
                  <X size={14} aria-hidden="true" />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError message={error} />
      {canEdit && editing && (
        <IssueInput
          issues={allIssues}
          chosenNames={issues.map((userIssue) => userIssue.IssueArea.issue_name)}
          duplicateMessage={DUPLICATE_ISSUE_MESSAGES.profile}
          onAdd={add}
        />
      )}
      <p className="prof-bills">
        <NewTabLink href={BILL_SITE_URL}>Find bills on California Legislative Information</NewTabLink>
      </p>
    </Panel>
  );
}
