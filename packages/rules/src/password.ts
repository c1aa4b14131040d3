// Password rules for register, reset and update: the live checklist, the overall check and its messages.

export const PASSWORD_MIN_LENGTH = 10;

export const PASSWORD_MESSAGES = {
  doesNotMeetCriteria: 'Password does not meet criteria.',
  doNotMatch: 'Passwords do not match',
} as const;

export type PasswordRuleKey = 'length' | 'uppercase' | 'lowercase' | 'number' | 'symbol';

export interface PasswordRuleResult {
  /** Stable id, usable as a React key. */
  key: PasswordRuleKey;
  label: string;
  met: boolean;
}

// Unicode-aware on purpose: 'É' is an uppercase letter and 'ß' a lowercase one, not symbols.
// A symbol is anything that is not a letter, a combining mark (so a decomposed 'é' is not a symbol),
// a decimal digit or whitespace; a space alone does not satisfy the symbol rule.
const UPPERCASE = /\p{Lu}/u;
const LOWERCASE = /\p{Ll}/u;
const NUMBER = /\p{Nd}/u;
const SYMBOL = /[^\p{L}\p{M}\p{Nd}\s]/u;

const RULES: readonly { key: PasswordRuleKey; label: string; test: (password: string) => boolean }[] = [
  {
    key: 'length',
    label: `At least ${PASSWORD_MIN_LENGTH} characters`,
    // Count code points, not UTF-16 units, so an emoji counts as one character.
    test: (password) => [...password].length >= PASSWORD_MIN_LENGTH,
  },
  { key: 'uppercase', label: 'At least 1 uppercase letter', test: (password) => UPPERCASE.test(password) },
  { key: 'lowercase', label: 'At least 1 lowercase letter', test: (password) => LOWERCASE.test(password) },
  { key: 'number', label: 'At least 1 number', test: (password) => NUMBER.test(password) },
  { key: 'symbol', label: 'At least 1 symbol', test: (password) => SYMBOL.test(password) },
];

/** Each rule with its label and whether `password` meets it, in display order. */
export function passwordChecklist(password: string): PasswordRuleResult[] {
  return RULES.map(({ key, label, test }) => ({ key, label, met: test(password) }));
}

export function isPasswordValid(password: string): boolean {
  return RULES.every(({ test }) => test(password));
}

/** 'Password does not meet criteria.' when invalid, otherwise null. */
export function passwordError(password: string): string | null {
  return isPasswordValid(password) ? null : PASSWORD_MESSAGES.doesNotMeetCriteria;
}

/** 'Passwords do not match' when the retyped value differs (exact, case-sensitive), otherwise null. */
export function passwordMismatchError(password: string, retyped: string): string | null {
  return password === retyped ? null : PASSWORD_MESSAGES.doNotMatch;
}
