// Stand-in for the ALTCHA captcha in component tests: a checkbox that 'solves' the challenge at once and
// hands the form a fixed payload, with the same props and reset handle as the real component.
import { type Ref, useImperativeHandle, useState } from 'react';
import type { CaptchaHandle } from '../src/auth/Captcha';

export const CAPTCHA_CHALLENGE_URL = '/auth/captcha';
export const SOLVED_PAYLOAD = 'c29sdmVkLWNhcHRjaGE=';

interface CaptchaProps {
  onChange: (payload: string | null) => void;
  ref?: Ref<CaptchaHandle>;
}

export function Captcha({ onChange, ref }: CaptchaProps) {
  const [solved, setSolved] = useState(false);
  useImperativeHandle(ref, () => ({
    reset: () => {
      setSolved(false);
      onChange(null);
    },
  }));
  return (
    <label>
      <input
        type="checkbox"
        checked={solved}
        onChange={(event) => {
          setSolved(event.target.checked);
          onChange(event.target.checked ? SOLVED_PAYLOAD : null);
        }}
      />
      I'm not a robot
    </label>
  );
}
