// The captcha: the ALTCHA widget (self-hosted proof of work). It fetches a challenge from GET /auth/captcha,
// solves it in a worker when the member ticks its checkbox, and hands the base64 payload to the form, which
// sends it as captchaValue (register) or reCaptcha_token (reset request). The payload is null until solved,
// and again after it expires or the form resets the widget.
import './altcha-setup';
import type { AltchaWidgetElement } from 'altcha/external';
import type {} from 'altcha/types/react';
import { type Ref, useEffect, useImperativeHandle, useRef } from 'react';

export const CAPTCHA_CHALLENGE_URL = '/auth/captcha';

export interface CaptchaHandle {
  /** Forgets the solved payload (it is single-use) so the member solves a new challenge. */
  reset: () => void;
}

interface CaptchaProps {
  onChange: (payload: string | null) => void;
  ref?: Ref<CaptchaHandle>;
}

interface StateChangeDetail {
  state?: string;
  payload?: string | null;
}

export function Captcha({ onChange, ref }: CaptchaProps) {
  const widgetRef = useRef<AltchaWidgetElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const widget = widgetRef.current;
    if (!widget) return;
    const listener = (event: Event) => {
      const { state, payload } = (event as CustomEvent<StateChangeDetail>).detail ?? {};
      onChangeRef.current(state === 'verified' && payload ? payload : null);
    };
    widget.addEventListener('statechange', listener);
    return () => widget.removeEventListener('statechange', listener);
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      reset: () => {
        const widget = widgetRef.current;
        if (typeof widget?.reset === 'function') widget.reset();
        onChangeRef.current(null);
      },
    }),
    [],
  );

  return (
    <div className="captcha">
      <altcha-widget ref={widgetRef} challenge={CAPTCHA_CHALLENGE_URL} type="checkbox" />
    </div>
  );
}
