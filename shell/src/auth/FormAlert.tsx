// An in-page alert inside a form or page (ADR 0009): role="alert" so screen readers announce it, styled as
// a success or an error.
import { CircleAlert, CircleCheck } from 'lucide-react';
import type { ReactNode } from 'react';

interface FormAlertProps {
  tone: 'success' | 'error';
  children: ReactNode;
}

export function FormAlert({ tone, children }: FormAlertProps) {
  const Icon = tone === 'success' ? CircleCheck : CircleAlert;
  return (
    <div className={`form-alert form-alert--${tone}`} role="alert">
      <Icon size={20} aria-hidden="true" className="form-alert__icon" />
      <div className="form-alert__body">{children}</div>
    </div>
  );
}
