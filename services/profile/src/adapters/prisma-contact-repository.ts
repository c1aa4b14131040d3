// Work contacts read from the profile schema in one SQL statement per batch, in the order of the ids given: the
// names, work email and office phone of each profile and its latest current job (as the directory card picks it)
// with the read copies' organization and division names. Selects no personal column, so none can leave.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Contact, ContactRepository } from '../domain/contacts.ts';
import { profilesWithLatestJob, tableOf } from './prisma-profile-sql.ts';

interface ContactRow {
  profile_id: number;
  first_name: string;
  last_name: string;
  title: string | null;
  organization_name: string | null;
  division_name: string | null;
  work_email: string;
  other_phone: string | null;
}

const contactOf = (row: ContactRow): Contact => ({
  profileId: row.profile_id,
  firstName: row.first_name,
  lastName: row.last_name,
  title: row.title,
  organizationName: row.organization_name,
  divisionName: row.division_name,
  workEmail: row.work_email,
  officePhone: row.other_phone,
});

export function prismaContactRepository(prisma: PrismaClient, schema: string): ContactRepository {
  const table = tableOf(schema);
  return {
    async contacts(profileIds) {
      if (profileIds.length === 0) return [];
      const rows = await prisma.$queryRaw<ContactRow[]>`
        SELECT p.profile_id, p.first_name, p.last_name, j.title, o.organization_name, d.division_name,
          p.work_email, p.other_phone
        ${profilesWithLatestJob(table, profileIds)}
        ORDER BY listed.position`;
      return rows.map(contactOf);
    },
  };
}
