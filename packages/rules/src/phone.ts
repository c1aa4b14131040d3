// Phone auto-format: (xxx) xxx-xxxx once exactly 10 digits have been entered.

/**
 * Extracts the ASCII digits; with exactly 10 returns '(xxx) xxx-xxxx', otherwise the input unchanged,
 * so partial input, 11-digit numbers with a country code and extensions are left for the user to edit.
 */
export function formatPhone(input: string): string {
  const digits = input.replace(/[^0-9]/g, '');
  if (digits.length !== 10) return input;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}
