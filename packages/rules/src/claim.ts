// Claiming a profile (docs/product.md#claims-reviewed-by-contributors; ADR 0022, ADR 0037): a claim is
// confirmed at once only when the member's confirmed account email is the profile's work email, in any case,
// that work email has not been changed in the last 30 days, and the member is not a contributor; any other
// claim waits for a contributor (never the claimant, nor the one who last changed the work email). So a
// contributor cannot hand an unowned profile to someone by editing its work email: the claim that follows
// waits for another contributor. The claim dialog says beforehand which it will be, and the profile service
// decides by the same rule.

/** How long a changed work email stops confirming claims at once. */
export const WORK_EMAIL_SETTLING_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ClaimCircumstances {
  /** When the profile's work email was last changed after it was created; null or absent: never. */
  workEmailChangedAt?: Date | null;
  /** Contributors' own claims always wait for another contributor. */
  claimantIsContributor?: boolean;
  now?: Date;
}

/** Whether the work email changed within the settling period before `now`. */
export function workEmailSettling(changedAt: Date | null | undefined, now: Date = new Date()): boolean {
  return !!changedAt && now.getTime() - changedAt.getTime() < WORK_EMAIL_SETTLING_DAYS * DAY_MS;
}

export function claimConfirmsAtOnce(
  accountEmail: string,
  workEmail: string,
  { workEmailChangedAt, claimantIsContributor = false, now }: ClaimCircumstances = {},
): boolean {
  const email = accountEmail.trim().toLowerCase();
  return (
    email !== '' &&
    email === workEmail.trim().toLowerCase() &&
    !claimantIsContributor &&
    !workEmailSettling(workEmailChangedAt, now)
  );
}
