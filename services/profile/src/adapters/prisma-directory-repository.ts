// What the people directory reads from the profile schema: the index's entries (names, picture, current jobs with
// the read copies' organization and division names, issue areas) and the cards of a page, each in one SQL
// statement, since a page or an index batch is many profiles at once. Cards are read here only for documents
// indexed before they stored their card; with a read driver, through a prepared statement on its own pool.
import type { ReadDriver } from '@rotunda/service-kit';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { DirectoryCard, DirectoryEntry, DirectoryRepository } from '../domain/directory.ts';
import { isVerifiedEmployer } from '../domain/verified-employer.ts';
import { profilesWithLatestJob, tableOf } from './prisma-profile-sql.ts';

interface EntryRow {
  profile_id: number;
  first_name: string;
  last_name: string;
  preferred_name: string | null;
  profile_picture: string | null;
  owner_email_domain: string | null;
  jobs: {
    title: string;
    organization_name: string;
    email_domains: string[];
    group_type: string;
    division_name: string | null;
    city: string | null;
    state: string | null;
  }[];
  issue_ids: number[];
}

interface CardRow {
  profile_id: number;
  first_name: string;
  last_name: string;
  preferred_name: string | null;
  profile_picture: string | null;
  title: string | null;
  organization_name: string | null;
  division_name: string | null;
  group_type: string | null;
  city: string | null;
  state: string | null;
  owner_email_domain: string | null;
  /** The domains that count of every current job's organization. */
  organization_domains: string[];
}

const entryOf = (row: EntryRow): DirectoryEntry => ({
  profileId: row.profile_id,
  firstName: row.first_name,
  lastName: row.last_name,
  preferredName: row.preferred_name,
  profilePicture: row.profile_picture,
  ownerEmailDomain: row.owner_email_domain,
  currentJobs: row.jobs.map((job) => ({
    title: job.title,
    organizationName: job.organization_name,
    emailDomains: job.email_domains,
    groupType: job.group_type,
    divisionName: job.division_name,
    city: job.city,
    state: job.state,
  })),
  issueIds: row.issue_ids,
});

const CARD_COLUMNS = [
  'profile_id',
  'first_name',
  'last_name',
  'preferred_name',
  'profile_picture',
  'title',
  'organization_name',
  'division_name',
  'group_type',
  'city',
  'state',
  'owner_email_domain',
  'organization_domains',
] as const satisfies readonly (keyof CardRow)[];

const cardOf = (row: CardRow): DirectoryCard => ({
  profileId: row.profile_id,
  firstName: row.first_name,
  lastName: row.last_name,
  preferredName: row.preferred_name,
  profilePicture: row.profile_picture,
  title: row.title,
  organizationName: row.organization_name,
  divisionName: row.division_name,
  groupType: row.group_type,
  city: row.city,
  state: row.state,
  verifiedEmployer: isVerifiedEmployer(row.owner_email_domain, [row.organization_domains]),
});

export function prismaDirectoryRepository(
  prisma: PrismaClient,
  schema: string,
  readDriver?: ReadDriver,
): DirectoryRepository {
  const table = tableOf(schema);

  const entries = async (where: Prisma.Sql, limit: number | null) => {
    const rows = await prisma.$queryRaw<EntryRow[]>`
      SELECT p.profile_id, p.first_name, p.last_name, p.preferred_name, p.profile_picture,
        CASE WHEN p.user_id IS NOT NULL THEN p.owner_email_domain END AS owner_email_domain,
        COALESCE((
          SELECT json_agg(json_build_object(
            'title', j.title,
            'organization_name', COALESCE(o.organization_name, ''),
            'email_domains', COALESCE(o.email_domains, ARRAY[]::text[]),
            'group_type', COALESCE(o.group_type, ''),
            'division_name', d.division_name,
            'city', j.city,
            'state', j.state) ORDER BY j.start_date DESC, j.job_id DESC)
          FROM ${table('job_experiences')} j
          LEFT JOIN ${table('organizations')} o ON o.organization_id = j.organization_id
          LEFT JOIN ${table('divisions')} d ON d.division_id = j.division_id
          WHERE j.profile_id = p.profile_id AND j.current_job
        ), '[]'::json) AS jobs,
        ARRAY(
          SELECT ui.issue_id FROM ${table('user_issues')} ui WHERE ui.profile_id = p.profile_id ORDER BY ui.issue_id
        ) AS issue_ids
      FROM ${table('profiles')} p
      ${where}
      ORDER BY p.profile_id
      ${limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`;
    return rows.map(entryOf);
  };

  return {
    directoryEntries: (profileIds) =>
      entries(Prisma.sql`WHERE p.profile_id = ANY(${[...profileIds]}::integer[])`, null),

    directoryEntriesAfter: (afterProfileId, limit) =>
      entries(Prisma.sql`WHERE p.profile_id > ${afterProfileId}`, limit),

    countProfiles: () => prisma.profile.count(),

    async profileIdsWorkingAt({ organizationIds, divisionIds }) {
      const rows = await prisma.$queryRaw<{ profile_id: number }[]>`
        SELECT DISTINCT profile_id FROM ${table('job_experiences')}
        WHERE current_job
          AND (organization_id = ANY(${[...organizationIds]}::integer[])
            OR division_id = ANY(${[...divisionIds]}::integer[]))`;
      return rows.map((row) => row.profile_id);
    },

    async directoryCards(profileIds) {
      if (profileIds.length === 0) return [];
      const statement = Prisma.sql`
        SELECT p.profile_id, p.first_name, p.last_name, p.preferred_name, p.profile_picture,
          j.title, o.organization_name, d.division_name, o.group_type, j.city, j.state,
          CASE WHEN p.user_id IS NOT NULL THEN p.owner_email_domain END AS owner_email_domain,
          ARRAY(
            SELECT DISTINCT unnest(oc.email_domains)
            FROM ${table('job_experiences')} jc
            JOIN ${table('organizations')} oc ON oc.organization_id = jc.organization_id
            WHERE jc.profile_id = p.profile_id AND jc.current_job
          ) AS organization_domains
        ${profilesWithLatestJob(table, profileIds)}
        ORDER BY listed.position`;
      if (!readDriver) return (await prisma.$queryRaw<CardRow[]>(statement)).map(cardOf);
      const { rows } = await readDriver.queryRaw({
        sql: statement.text,
        args: statement.values,
        argTypes: [{ scalarType: 'int', arity: 'list' }],
      });
      return rows.map((values) =>
        cardOf(
          Object.fromEntries(CARD_COLUMNS.map((column, i) => [column, values[i]])) as unknown as CardRow,
        ),
      );
    },
  };
}
