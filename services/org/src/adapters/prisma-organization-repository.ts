// Organizations, groups and divisions in the org schema through Prisma. Raw SQL only where Prisma has no
// words for it: case-insensitive name equality, escaped substring matching, row locks and advisory locks; and
// for the list's hot read, one lean statement that can skip Prisma Client (see findByIds). Every write of a name
// other services copy (organization, division) announces the result in its transaction (ADR 0012).
import { type DivisionChanged, type OrganizationChanged, publishChange } from '@rotunda/events';
import {
  DIVISION_FIELD_NAMES,
  type DivisionFieldName,
  foldName,
  ORGANIZATION_FIELD_NAMES,
  type OrganizationFieldKey,
  organizationEmailDomains,
  organizationFieldKey,
} from '@rotunda/rules';
import {
  historyEntryOf,
  historyRecordOf,
  NO_SEARCH_OUTBOX,
  type ReadDriver,
  type SearchOutbox,
} from '@rotunda/service-kit';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { Curation, HistoryAction } from '../domain/history.ts';
import {
  type Division,
  employerDomainSources,
  type Group,
  type Organization,
} from '../domain/organization.ts';
import type { OrganizationRepository } from '../domain/ports.ts';

const withGroup = { group: { select: { groupName: true } } } as const;
const withOrganization = { organization: { select: { organizationName: true } } } as const;

type OrganizationRow = Prisma.OrganizationGetPayload<{ include: typeof withGroup }>;
type DivisionRow = Prisma.DivisionGetPayload<{ include: typeof withOrganization }>;

function organizationOf({
  group,
  createdAt: _c,
  updatedAt: _u,
  websiteConfirmedAt: _w,
  nameKey: _k,
  ...row
}: OrganizationRow): Organization {
  return { ...row, groupName: group.groupName };
}

function divisionOf({ organization, createdAt: _c, updatedAt: _u, ...row }: DivisionRow): Division {
  return { ...row, organizationName: organization.organizationName };
}

function organizationChanged(organization: Organization): OrganizationChanged {
  return {
    kind: 'organization',
    organization_id: organization.organizationId,
    organization_name: organization.organizationName,
    group_type: organization.groupName,
    logo: organization.logo,
    email_domains: organizationEmailDomains(employerDomainSources(organization)),
  };
}

function divisionChanged(division: Division): DivisionChanged {
  return {
    kind: 'division',
    division_id: division.divisionId,
    division_name: division.divisionName,
    division_type: division.divisionType,
    active_division: division.activeDivision,
    organization_id: division.organizationId,
    // Pick: a division row the event lacks is a compile error.
    ...(Object.fromEntries(
      DIVISION_FIELD_NAMES.map((name) => [name, division[organizationFieldKey(name)]]),
    ) as Pick<DivisionChanged, DivisionFieldName>),
  };
}

/** Every field of the domain's Organization with the column it is read from (the group's name joined in). */
const ORGANIZATION_COLUMNS: Record<keyof Organization, string> = {
  organizationId: 'o.organization_id',
  organizationName: 'o.organization_name',
  groupId: 'o.group_id',
  groupName: 'g.group_name',
  logo: 'o.logo',
  hidden: 'o.hidden',
  emailDomains: 'o.email_domains',
  websiteConfirmedBy: 'o.website_confirmed_by',
  // The table's fields are stored under their REST names.
  ...(Object.fromEntries(
    ORGANIZATION_FIELD_NAMES.map((name) => [organizationFieldKey(name), `o.${name}`]),
  ) as Record<OrganizationFieldKey, string>),
};
const ORGANIZATION_KEYS = Object.keys(ORGANIZATION_COLUMNS) as (keyof Organization)[];
const ORGANIZATION_SELECT = Prisma.raw(
  ORGANIZATION_KEYS.map((field) => `${ORGANIZATION_COLUMNS[field]} AS "${field}"`).join(', '),
);

/** A row the driver answers (values in ORGANIZATION_COLUMNS' order) as the domain's Organization. */
function organizationOfValues(values: unknown[]): Organization {
  const organization: Record<string, unknown> = {};
  ORGANIZATION_KEYS.forEach((field, i) => {
    organization[field] = values[i];
  });
  return organization as unknown as Organization;
}

/** A write refused by the unique folded name: another organization reads alike (added at the same moment). */
const isNameKeyTaken = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError &&
  error.code === 'P2002' &&
  JSON.stringify(error.meta ?? {}).includes('name_key');

/** When a write confirms the website, it says when; clearing the confirmation clears the time. */
const confirmedAt = (websiteConfirmedBy: string | null | undefined) =>
  websiteConfirmedBy === undefined ? {} : { websiteConfirmedAt: websiteConfirmedBy ? new Date() : null };

/** A LIKE pattern that matches `word` anywhere, with LIKE's own wildcards in it taken literally. */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `readDriver` serves findByIds when given (the composition root gives one); without it (tests, tools) the same
 * statement runs through Prisma Client. `outbox` notes each write that changes an organization's search document
 * in the write's own transaction (ADR 0057).
 */
export function prismaOrganizationRepository(
  prisma: PrismaClient,
  schema: string,
  readDriver?: ReadDriver,
  outbox: SearchOutbox = NO_SEARCH_OUTBOX,
): OrganizationRepository {
  // Prisma qualifies its own queries with the adapter's schema; raw queries must name it themselves.
  const table = (name: string) => Prisma.raw(`"${schema}"."${name}"`);

  /** The change's history entry, in its transaction. */
  const record = async (tx: Prisma.TransactionClient, organizationId: number, curation?: Curation) => {
    const recorded = historyRecordOf(curation);
    if (!recorded) return;
    await tx.organizationHistory.create({
      data: { organizationId, ...recorded, changes: recorded.changes as unknown as Prisma.InputJsonValue },
    });
  };

  const byId = async (client: Prisma.TransactionClient, organizationId: number) => {
    const row = await client.organization.findUnique({ where: { organizationId }, include: withGroup });
    return row ? organizationOf(row) : null;
  };

  return {
    async ensureGroups(groups) {
      await prisma.$transaction(
        groups.map((group) =>
          prisma.group.upsert({
            where: { groupId: group.groupId },
            create: group,
            update: { groupName: group.groupName },
          }),
        ),
      );
    },

    async listGroups(): Promise<Group[]> {
      return prisma.group.findMany({ orderBy: { groupId: 'asc' } });
    },

    count: () => prisma.organization.count(),

    async listVisible() {
      const rows = await prisma.organization.findMany({
        where: { hidden: false },
        include: withGroup,
        orderBy: [{ organizationName: 'asc' }, { organizationId: 'asc' }],
      });
      return rows.map(organizationOf);
    },

    findById: (organizationId) => byId(prisma, organizationId),

    // Every list page and autocomplete reads its rows here: one statement, the group's name joined in, in the
    // order of `ids` (ids the table lost are skipped). Prisma Client spends about a millisecond of CPU on a
    // findMany of 30 rows with their group (two queries); the driver runs this one prepared statement for a fifth
    // of that.
    async findByIds(ids) {
      if (ids.length === 0) return [];
      const statement = Prisma.sql`
        SELECT ${ORGANIZATION_SELECT}
        FROM unnest(${[...ids]}::integer[]) WITH ORDINALITY AS wanted (id, position)
        JOIN ${table('organizations')} o ON o.organization_id = wanted.id
        JOIN ${table('groups')} g ON g.group_id = o.group_id
        ORDER BY wanted.position`;
      if (!readDriver) return prisma.$queryRaw<Organization[]>(statement);
      const { rows } = await readDriver.queryRaw({
        sql: statement.text,
        args: statement.values,
        argTypes: [{ scalarType: 'int', arity: 'list' }],
      });
      return rows.map(organizationOfValues);
    },

    async historyOf(organizationId, beforeId, limit) {
      const rows = await prisma.organizationHistory.findMany({
        where: { organizationId, ...(beforeId === null ? {} : { historyId: { lt: BigInt(beforeId) } }) },
        orderBy: { historyId: 'desc' },
        take: limit,
      });
      return rows.map((row) => historyEntryOf<HistoryAction>(row));
    },

    async addUnlessNamed(organization, curation) {
      const key = foldName(organization.organizationName);
      const existing = async (client: Prisma.TransactionClient) => {
        const [row] = await client.$queryRaw<{ organization_id: number }[]>`
          SELECT organization_id FROM ${table('organizations')} WHERE name_key = ${key}`;
        return row ? byId(client, row.organization_id) : null;
      };
      try {
        return await prisma.$transaction(async (tx) => {
          // Serializes adds of names that fold alike, so two members adding one at once make one organization.
          await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`org.name:${key}`}))::text`;
          const found = await existing(tx);
          if (found) return { organization: found, created: false };
          const created = organizationOf(
            await tx.organization.create({
              data: { ...organization, nameKey: key, ...confirmedAt(organization.websiteConfirmedBy) },
              include: withGroup,
            }),
          );
          await publishChange(tx, organizationChanged(created));
          await outbox.record(tx, [created.organizationId]);
          await record(tx, created.organizationId, curation);
          return { organization: created, created: true };
        });
      } catch (error) {
        // A rename to this name committed between the lock and the insert: the index kept one of them.
        const found = isNameKeyTaken(error) ? await existing(prisma) : null;
        if (found) return { organization: found, created: false };
        throw error;
      }
    },

    async findOtherNamed(name, exceptId) {
      const [other] = await prisma.$queryRaw<{ organization_id: number }[]>`
        SELECT organization_id FROM ${table('organizations')}
        WHERE name_key = ${foldName(name)} AND organization_id <> ${exceptId}
        LIMIT 1`;
      return other ? byId(prisma, other.organization_id) : null;
    },

    async rekeyNames() {
      const rows = await prisma.organization.findMany({
        select: { organizationId: true, organizationName: true, nameKey: true },
        orderBy: { organizationId: 'asc' },
      });
      let rekeyed = 0;
      for (const row of rows) {
        const key = foldName(row.organizationName);
        if (row.nameKey === key) continue;
        try {
          await prisma.organization.update({
            where: { organizationId: row.organizationId },
            data: { nameKey: key },
          });
          rekeyed += 1;
        } catch (error) {
          // An older organization already reads alike: this one keeps what it had.
          if (!isNameKeyTaken(error)) throw error;
        }
      }
      return rekeyed;
    },

    async update(organizationId, changes, curation) {
      try {
        return await prisma.$transaction(async (tx) => {
          const data = {
            ...changes,
            ...(changes.organizationName === undefined
              ? {}
              : { nameKey: foldName(changes.organizationName) }),
            ...confirmedAt(changes.websiteConfirmedBy),
          };
          const updated = organizationOf(
            await tx.organization.update({ where: { organizationId }, data, include: withGroup }),
          );
          await publishChange(tx, organizationChanged(updated));
          await outbox.record(tx, [organizationId]);
          await record(tx, organizationId, curation);
          return updated;
        });
      } catch (error) {
        // P2025: the row went away between the check and the write.
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025') return null;
        // Another organization took a name that reads alike between the check and the write.
        if (isNameKeyTaken(error)) return 'name_taken';
        throw error;
      }
    },

    async setLogo(organizationId, url, curation) {
      return prisma.$transaction(async (tx) => {
        // The row lock makes "read the previous logo, write the new one" one step, so two uploads at once
        // each remove the logo they replaced and no object is left behind or removed while in use.
        const [row] = await tx.$queryRaw<{ logo: string | null }[]>`
          SELECT logo FROM ${table('organizations')} WHERE organization_id = ${organizationId} FOR UPDATE`;
        if (!row) return null;
        const updated = await tx.organization.update({
          where: { organizationId },
          data: { logo: url },
          include: withGroup,
        });
        await publishChange(tx, organizationChanged(organizationOf(updated)));
        await outbox.record(tx, [organizationId]);
        await record(tx, organizationId, curation);
        return { previous: row.logo };
      });
    },

    async forEachBatch(batchSize, visit) {
      let after = 0;
      for (;;) {
        const rows = await prisma.organization.findMany({
          where: { organizationId: { gt: after } },
          include: withGroup,
          orderBy: { organizationId: 'asc' },
          take: batchSize,
        });
        if (rows.length === 0) return;
        await visit(rows.map(organizationOf));
        after = rows.at(-1)?.organizationId ?? after;
      }
    },

    async exportNames({ afterOrganizationId, afterDivisionId, limit }) {
      const take = limit ?? undefined;
      const [organizations, divisions] = await Promise.all([
        prisma.organization.findMany({
          where: { organizationId: { gt: afterOrganizationId } },
          include: withGroup,
          orderBy: { organizationId: 'asc' },
          take,
        }),
        prisma.division.findMany({
          where: { divisionId: { gt: afterDivisionId } },
          include: withOrganization,
          orderBy: { divisionId: 'asc' },
          take,
        }),
      ]);
      return { organizations: organizations.map(organizationOf), divisions: divisions.map(divisionOf) };
    },

    async divisionsOf(organizationId) {
      const rows = await prisma.division.findMany({
        where: { organizationId },
        include: withOrganization,
        orderBy: [{ divisionName: 'asc' }, { divisionId: 'asc' }],
      });
      return rows.map(divisionOf);
    },

    async findDivisionsByWords(words, limit) {
      if (words.length === 0) return [];
      const matches = Prisma.join(
        words.map((word) => Prisma.sql`division_name ILIKE ${containing(word)} ESCAPE '\\'`),
        ' AND ',
      );
      const ids = await prisma.$queryRaw<{ division_id: number }[]>`
        SELECT division_id FROM ${table('divisions')}
        WHERE active_division AND ${matches}
        ORDER BY lower(division_name), division_id
        LIMIT ${limit}`;
      if (ids.length === 0) return [];
      const rows = await prisma.division.findMany({
        where: { divisionId: { in: ids.map((row) => row.division_id) } },
        include: withOrganization,
      });
      const found = new Map(rows.map((row) => [row.divisionId, divisionOf(row)]));
      return ids.flatMap((row) => found.get(row.division_id) ?? []);
    },

    async addDivisionUnlessNamed(division, curation) {
      const name = division.divisionName;
      return prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`org.division:${division.organizationId}:${name.toLowerCase()}`}))::text`;
        const [existing] = await tx.$queryRaw<{ division_id: number }[]>`
          SELECT division_id FROM ${table('divisions')}
          WHERE organization_id = ${division.organizationId} AND lower(division_name) = lower(${name})
          ORDER BY division_id LIMIT 1`;
        if (existing) {
          const row = await tx.division.findUnique({
            where: { divisionId: existing.division_id },
            include: withOrganization,
          });
          if (row) return { division: divisionOf(row), created: false };
        }
        const created = divisionOf(await tx.division.create({ data: division, include: withOrganization }));
        await publishChange(tx, divisionChanged(created));
        await record(tx, division.organizationId, curation);
        return { division: created, created: true };
      });
    },
  };
}
