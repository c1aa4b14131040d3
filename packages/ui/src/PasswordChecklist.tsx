// The live checklist of the password rules (docs/product.md#5-validation-rules), shown under a new-password
// field. Each rule says whether it is met in text as well as by its icon. The rules themselves are
// @rotunda/rules' passwordChecklist.
import { passwordChecklist } from '@rotunda/rules';
import { Check, Circle } from 'lucide-react';
import './password-checklist.css';

export interface PasswordChecklistProps {
  /** For the password field's aria-describedby. */
  id: string;
  password: string;
}

export function PasswordChecklist({ id, password }: PasswordChecklistProps) {
  return (
    <ul id={id} className="password-checklist" aria-label="Password rules">
      {passwordChecklist(password).map((rule) => (
        <li
          key={rule.key}
          className={
            rule.met ? 'password-checklist__item password-checklist__item--met' : 'password-checklist__item'
          }
        >
          {rule.met ? <Check size={16} aria-hidden="true" /> : <Circle size={16} aria-hidden="true" />}
          {rule.label}
          <span className="visually-hidden">{rule.met ? ' (met)' : ' (not met)'}</span>
        </li>
      ))}
    </ul>
  );
}
