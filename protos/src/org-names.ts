// How a service keeping a read copy of the org service's names (ADR 0012) asks for them: rotunda.org.v1
// ExportNames a page at a time, each page its own call with its own deadline, so a copy of tens of thousands of
// organizations never waits on one answer.
import type { ExportNamesRequest, ExportNamesResponse } from '../gen/rotunda/org/v1/org.ts';

/** The organizations, and divisions, one page asks for: a few hundred kilobytes, quick to read and send. */
export const EXPORT_NAMES_PAGE = 2000;

/**
 * Every organization and division, by id: `ask` is called after the last ids received until both lists come
 * back shorter than `limit`. A replica of the previous release answers everything whatever is asked, so only
 * rows past those ids are kept: each row comes once and the walk ends.
 */
export async function exportAllNames(
  ask: (request: ExportNamesRequest) => Promise<ExportNamesResponse>,
  limit = EXPORT_NAMES_PAGE,
): Promise<ExportNamesResponse> {
  const all: ExportNamesResponse = { organizations: [], divisions: [] };
  const after = { organization: 0, division: 0 };
  for (;;) {
    const page = await ask({
      after_organization_id: after.organization,
      after_division_id: after.division,
      limit,
    });
    const organizations = page.organizations.filter((o) => o.organization_id > after.organization);
    const divisions = page.divisions.filter((d) => d.division_id > after.division);
    all.organizations.push(...organizations);
    all.divisions.push(...divisions);
    if (organizations.length < limit && divisions.length < limit) return all;
    after.organization = organizations.at(-1)?.organization_id ?? after.organization;
    after.division = divisions.at(-1)?.division_id ?? after.division;
  }
}
