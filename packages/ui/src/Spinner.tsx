// The loading spinner the apps share. With a label it is a status that screen readers announce; without
// one it is decoration beside text that already says what is happening (a button's 'Saving…').
import './spinner.css';

export interface SpinnerProps {
  /** What is loading, e.g. 'Loading organizations'; leave it out when the text next to it says so. */
  label?: string;
  /** large: a screen or panel loading; small: a line loading more; inline: inside a button, in its colour. */
  size?: 'large' | 'small' | 'inline';
}

export function Spinner({ label, size = 'large' }: SpinnerProps) {
  const className = `spinner spinner--${size}`;
  if (label === undefined) return <span className={className} aria-hidden="true" />;
  return <span className={className} role="status" aria-label={label} />;
}
