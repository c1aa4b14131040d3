// Claiming a profile (DESIGN.md, "Fixes to the as-built product"): a claim is confirmed at once only when the
// member's confirmed account email is the profile's work email, in any case; any other claim waits for a
// contributor. The claim dialog says beforehand which it will be, and the profile service decides by the same rule.
export function claimConfirmsAtOnce(accountEmail: string, workEmail: string): boolean {
  const email = accountEmail.trim().toLowerCase();
  return email !== '' && email === workEmail.trim().toLowerCase();
}
