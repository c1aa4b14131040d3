// Captcha messages (the texts say reCAPTCHA whichever captcha is configured, as the spec words them).

export const CAPTCHA_MESSAGES = {
  missing: 'Please verify the reCAPTCHA!',
  failed: 'reCAPTCHA validation failed!',
} as const;
