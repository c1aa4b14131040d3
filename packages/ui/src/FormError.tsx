// The line under a form that says what is missing or what the server refused (.form-error of
// @rotunda/ui/forms.css, which the screen imports); an alert, so it is announced when it appears.

export interface FormErrorProps {
  /** Nothing is shown without one. */
  message: string | null;
  /** The screen's own class besides form-error. */
  className?: string;
  /** For the aria-describedby of the fields the message is about. */
  id?: string;
}

export function FormError({ message, className, id }: FormErrorProps) {
  if (!message) return null;
  return (
    <p id={id} className={className ? `form-error ${className}` : 'form-error'} role="alert">
      {message}
    </p>
  );
}
