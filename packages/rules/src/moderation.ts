// Moderation rules shared by the screens, the gateway and the services (ADR 0041): the reasons a member may
// report for and their labels, a contributor's decisions, the note's, a reason's, a suspension's and the log page's
// bounds, and the message every write of a suspended member is refused with.

/** The reasons a member may report a post or comment for (docs/product.md#moderation). */
export const REPORT_REASONS = [
  'spam',
  'harassment',
  'misinformation',
  'personal_information',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What the report dialog and the moderation queue show for each reason. */
export const REPORT_REASON_LABELS: Readonly<Record<ReportReason, string>> = {
  spam: 'Spam',
  harassment: 'Harassment',
  misinformation: 'Misinformation',
  personal_information: 'Personal information',
  other: 'Other',
};

/** A contributor's decisions on a reported target. */
export const MODERATION_ACTIONS = ['dismiss', 'hide', 'restore', 'remove'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** The most characters a report's optional note may hold. */
export const REPORT_NOTE_MAX = 500;

/** The most characters a contributor's reason for a decision or a suspension (which the member reads) may hold. */
export const MODERATION_REASON_MAX = 1000;

/** The moderation log's entries per answer: by default, and at most. */
export const MODERATION_LOG_PAGE = { default: 50, max: 100 } as const;

/** How many days a contributor may suspend a member for. */
export const SUSPENSION_DAYS = { min: 1, max: 365 } as const;

/** The state's time zone: a suspension ends on the day a member in California would read. */
const SUSPENSION_DATE = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Los_Angeles',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});

/** The refusal of every write of a suspended member, and the suspended member's notice. */
export function suspendedMessage(until: Date, reason: string): string {
  return `Your account is suspended until ${SUSPENSION_DATE.format(until)}: ${reason}`;
}
