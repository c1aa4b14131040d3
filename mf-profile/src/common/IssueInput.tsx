// The field that adds an issue area, shared by profile creation (step 3) and the profile page's issues panel:
// an autocomplete over the known issues without those already chosen; Enter or Add takes the typed name (an
// existing issue of that name, any case, or a new one); a name already chosen is refused with the screen's
// own words (docs/product.md#5-validation-rules Duplicate issue).
import { refusalOf } from '@rotunda/ui';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import type { IssueArea } from '../api';
import { isDuplicateIssue, issueNamed, issueSuggestions } from '../profile-rules';
import { Autocomplete } from './Autocomplete';
import { FormError } from './fields';

export interface IssueChoice {
  name: string;
  /** The existing issue of that name; undefined for a new one. */
  issue: IssueArea | undefined;
}

interface IssueInputProps {
  /** Every issue area there is. */
  issues: readonly IssueArea[];
  /** The names already on the list. */
  chosenNames: readonly string[];
  /** 'You already added this issue.' or 'You already cover this issue.' */
  duplicateMessage: string;
  /** Adds the issue; a thrown error shows the server's refusal (or a general line) under the field. */
  onAdd: (choice: IssueChoice) => Promise<void> | void;
}

export function IssueInput({ issues, chosenNames, duplicateMessage, onAdd }: IssueInputProps) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  const add = async (choice: IssueChoice) => {
    const name = choice.name.trim();
    if (name === '' || adding) return;
    if (isDuplicateIssue(chosenNames, name)) {
      setError(duplicateMessage);
      return;
    }
    setError(null);
    setAdding(true);
    try {
      await onAdd({ name, issue: choice.issue ?? issueNamed(issues, name) });
      setText('');
    } catch (failure) {
      const serverSays = refusalOf(failure);
      if (!serverSays) console.error('The issue could not be added', failure);
      setError(serverSays ?? 'The issue could not be added right now. Please try again.');
    } finally {
      setAdding(false);
    }
  };

  return (
    <div className="prof-issue-input">
      <div className="prof-issue-input__row">
        <Autocomplete<IssueArea>
          label="Add an issue area"
          value={text}
          onType={(typed) => {
            setText(typed);
            setError(null);
          }}
          suggestions={issueSuggestions(issues, text, chosenNames)}
          keyOf={(issue) => issue.issue_id}
          render={(issue) => <span className="prof-autocomplete__name">{issue.issue_name}</span>}
          onChoose={(issue) => {
            setText(issue.issue_name);
            void add({ name: issue.issue_name, issue });
          }}
          onEnter={() => void add({ name: text, issue: undefined })}
          placeholder="e.g. Water policy"
        />
        <button
          type="button"
          className="button button--secondary prof-issue-input__add"
          onClick={() => void add({ name: text, issue: undefined })}
          disabled={text.trim() === '' || adding}
        >
          <Plus size={16} aria-hidden="true" />
          Add
        </button>
      </div>
      <FormError message={error} />
    </div>
  );
}
