// The live checklist of the password rules (spec §5), shown under a new-password field on the register
// dialog and the reset page. Each rule says whether it is met, in text as well as by its icon.
import { passwordChecklist } from '@rotunda/rules';
import { Check, Circle } from 'lucide-react';

interface PasswordChecklistProps {
  id: string;
  password: string;
}

export function PasswordChecklist({ id, password }: PasswordChecklistProps) {
  return (
    <ul id={id} className="checklist" aria-label="Password rules">
      {passwordChecklist(password).map((rule) => (
        <li key={rule.key} className={rule.met ? 'checklist__item checklist__item--met' : 'checklist__item'}>
          {rule.met ? <Check size={16} aria-hidden="true" /> : <Circle size={16} aria-hidden="true" />}
          {rule.label}
          <span className="visually-hidden">{rule.met ? ' (met)' : ' (not met)'}</span>
        </li>
      ))}
    </ul>
  );
}
