// The raw SQL the profile schema's Prisma adapters share: its tables named with the schema, the profiles of a list
// of ids with their latest current job, the locks that make a check and its write one step (a member's claims and
// profile creation), and the 'profile' change each write to a profile announces in its transaction (ADR 0012).

import { publishChange } from '@rotunda/events';
import type { SearchOutbox } from '@rotunda/service-kit';
import { Prisma } from '../../generated/prisma/client.ts';

/** A table of the schema, for raw queries: Prisma qualifies its own queries with the adapter's schema. */
export const tableOf = (schema: string) => (name: string) => Prisma.raw(`"${schema}"."${name}"`);

type Table = ReturnType<typeof tableOf>;

/**
 * The profiles of `ids`, in that order (`listed.position`), each with its latest current job `j` (as the profile
 * page lists jobs: current first, then by start date) and that job's organization `o` and division `d` from the
 * read copies: the FROM clause of the directory's cards and the work contacts.
 */
export const profilesWithLatestJob = (table: Table, ids: readonly number[]) => Prisma.sql`
  FROM unnest(${[...ids]}::integer[]) WITH ORDINALITY AS listed (id, position)
  JOIN ${table('profiles')} p ON p.profile_id = listed.id
  LEFT JOIN LATERAL (
    SELECT * FROM ${table('job_experiences')} jx
    WHERE jx.profile_id = p.profile_id AND jx.current_job
    ORDER BY jx.start_date DESC, jx.job_id DESC
    LIMIT 1
  ) j ON true
  LEFT JOIN ${table('organizations')} o ON o.organization_id = j.organization_id
  LEFT JOIN ${table('divisions')} d ON d.division_id = j.division_id`;

export const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/**
 * Serializes a member's claims and profile creation (both take it first), so "owns nothing and claims nothing
 * yet" stays true until the transaction's write.
 */
export const lockMember = (tx: Prisma.TransactionClient, userId: string) =>
  tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`profile.member:${userId}`}))::text`;

export const hasPendingClaim = async (tx: Prisma.TransactionClient, userId: string) =>
  (await tx.profileClaim.count({ where: { userId, status: 'pending' } })) > 0;

/**
 * Announces the profile as it is in this transaction, with the issue areas it covers (ADR 0012), and notes in the
 * search outbox that its directory document changes with it (ADR 0057). The profile's
 * announcements take one lock first, so the one that reads later commits later: two writes at once (an issue
 * added while another is removed, or a rename) never leave the last one heard with a list missing the other's.
 */
export async function announceProfile(
  client: Prisma.TransactionClient,
  row: {
    profileId: number;
    userId: string | null;
    firstName: string;
    lastName: string;
    profilePicture: string | null;
  },
  outbox: SearchOutbox,
): Promise<void> {
  await outbox.record(client, [row.profileId]);
  await client.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`profile.announce:${row.profileId}`}))::text`;
  const issues = await client.userIssue.findMany({
    where: { profileId: row.profileId },
    select: { issueId: true },
    orderBy: { issueId: 'asc' },
  });
  await publishChange(client, {
    kind: 'profile',
    profile_id: row.profileId,
    user_id: row.userId,
    first_name: row.firstName,
    last_name: row.lastName,
    profile_picture: row.profilePicture,
    issue_area_ids: issues.map((issue) => issue.issueId),
  });
}
