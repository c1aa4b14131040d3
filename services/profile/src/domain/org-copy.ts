// The read copies of the org service's organizations and divisions (ADR 0012): what jobs and colleague entries
// show of them. Kept by the org service's announcements and, on every (re)connection, a whole copy; a job that
// names an organization or division the copy does not hold yet (added a moment ago) is looked up at the org
// service and copied. Whoever shows those names (the people directory's index) hears of every rename.
import { invalidArgument, notFound } from '@rotunda/service-kit';
import { MESSAGES } from './access.ts';
import type { DivisionRef, OrganizationRef } from './model.ts';
import type { OrgCopyRepository, OrgDirectory } from './ports.ts';

export interface RenamedPlaces {
  organizationIds: readonly number[];
  divisionIds: readonly number[];
}

export function createOrgCopy({
  copy,
  directory,
  onRenamed,
}: {
  copy: OrgCopyRepository;
  directory: OrgDirectory;
  /** Told of the organizations and divisions whose names (or group, or email domains) the copy changed. */
  onRenamed: (renamed: RenamedPlaces) => Promise<void>;
}) {
  const upsert = async (organizations: readonly OrganizationRef[], divisions: readonly DivisionRef[]) => {
    const organizationIds = organizations.length > 0 ? await copy.upsertOrganizations(organizations) : [];
    const divisionIds = divisions.length > 0 ? await copy.upsertDivisions(divisions) : [];
    if (organizationIds.length > 0 || divisionIds.length > 0)
      await onRenamed({ organizationIds, divisionIds });
  };

  return {
    organizationChanged: (organization: OrganizationRef) => upsert([organization], []),

    divisionChanged: (division: DivisionRef) => upsert([], [division]),

    /** Copies every organization and division the org service has; answers what it copied. */
    async copyAll(): Promise<{ organizations: OrganizationRef[]; divisions: DivisionRef[] }> {
      const names = await directory.exportNames();
      await upsert(names.organizations, names.divisions);
      return names;
    },

    /**
     * The organization a job names, and its division when it names one. NOT_FOUND for an organization or
     * division the org service does not know; INVALID_ARGUMENT for a division of another organization.
     */
    async requirePlace(
      organizationId: number,
      divisionId: number | null,
    ): Promise<{ organization: OrganizationRef; division: DivisionRef | null }> {
      let organization = await copy.findOrganization(organizationId);
      let division = divisionId === null ? null : await copy.findDivision(divisionId);
      if (division && division.organizationId !== organizationId)
        throw invalidArgument(MESSAGES.divisionElsewhere);
      if (!organization || (divisionId !== null && !division)) {
        const fetched = await directory.organizationWithDivisions(organizationId);
        if (!fetched) throw notFound(MESSAGES.organizationNotFound);
        await upsert([fetched.organization], fetched.divisions);
        organization = fetched.organization;
        division =
          divisionId === null ? null : (fetched.divisions.find((d) => d.divisionId === divisionId) ?? null);
        if (divisionId !== null && !division) throw notFound(MESSAGES.divisionNotFound);
      }
      return { organization, division };
    },
  };
}

export type OrgCopy = ReturnType<typeof createOrgCopy>;
