// Keeps the read copies of the org service's names (ADR 0012): listens for its announcements and, on every
// (re)connection, copies everything first so nothing missed while away stays stale.
import { type Change, listenForChanges } from '@rotunda/events';
import { DIVISION_FIELD_NAMES, fieldsByKey } from '@rotunda/rules';
import type { Logger } from '@rotunda/service-kit';
import type { OrgCopy } from '../domain/org-copy.ts';

export async function applyOrgChange(
  orgCopy: Pick<OrgCopy, 'organizationChanged' | 'divisionChanged'>,
  change: Change,
) {
  if (change.kind === 'organization') {
    await orgCopy.organizationChanged({
      organizationId: change.organization_id,
      organizationName: change.organization_name,
      groupType: change.group_type,
      logo: change.logo,
      emailDomains: change.email_domains ?? [],
    });
  } else if (change.kind === 'division') {
    await orgCopy.divisionChanged({
      divisionId: change.division_id,
      divisionName: change.division_name,
      divisionType: change.division_type,
      activeDivision: change.active_division,
      organizationId: change.organization_id,
      ...fieldsByKey(DIVISION_FIELD_NAMES, change),
    });
  }
}

export function keepOrgCopy({
  databaseUrl,
  logger,
  orgCopy,
}: {
  databaseUrl: string;
  logger: Logger;
  orgCopy: OrgCopy;
}) {
  return listenForChanges({
    databaseUrl,
    logger,
    onChange: (change) => applyOrgChange(orgCopy, change),
    onConnected: async () => {
      const { organizations, divisions } = await orgCopy.copyAll();
      logger.info(
        { organizations: organizations.length, divisions: divisions.length },
        'organization names copied',
      );
    },
  });
}
