// The org adapter's ExportNames walk, on real gRPC against a recording fake of the org service: a copy larger than
// a page is gathered a page at a time, each row once and in id order, and a replica of the previous release that
// answers everything whatever is asked still gives each row once.
import { OrgServiceService } from '@rotunda/protos/org';
import { EXPORT_NAMES_PAGE } from '@rotunda/protos/org-names';
import { type RecordingFake, startRecordingFake } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { grpcOrgDirectory } from '../src/adapters/grpc-directories.ts';

const ORGANIZATIONS = Array.from({ length: 2 * EXPORT_NAMES_PAGE + 100 }, (_, n) => ({
  organization_id: 3 * n + 1,
  organization_name: `Organization ${n}`,
  group_type: 'Other',
  email_domains: [],
}));
const DIVISIONS = Array.from({ length: EXPORT_NAMES_PAGE + 7 }, (_, n) => ({
  division_id: 2 * n + 1,
  division_name: `Division ${n}`,
  division_type: 'Office',
  active_division: true,
  organization_id: 1,
  organization_name: 'Organization 0',
}));

/** The rows of `rows` after `after` by `id`, at most `limit` of them (0: all), as the org service pages them. */
const pageOf = <T>(rows: T[], id: (row: T) => number, after: number, limit: number) => {
  const past = rows.filter((row) => id(row) > after);
  return limit > 0 ? past.slice(0, limit) : past;
};

let fake: RecordingFake;
let directory: ReturnType<typeof grpcOrgDirectory>;

beforeAll(async () => {
  fake = await startRecordingFake({
    definition: OrgServiceService,
    defaults: {
      exportNames: async (request) => ({
        organizations: pageOf(
          ORGANIZATIONS,
          (o) => o.organization_id,
          request.after_organization_id as number,
          request.limit as number,
        ),
        divisions: pageOf(
          DIVISIONS,
          (d) => d.division_id,
          request.after_division_id as number,
          request.limit as number,
        ),
      }),
    },
  });
  directory = grpcOrgDirectory(fake.address, 3000);
});

afterAll(async () => {
  directory?.close();
  await fake?.server.shutdown();
});

beforeEach(() => fake.reset());

const expectEveryRowOnce = (names: Awaited<ReturnType<typeof directory.exportNames>>) => {
  expect(names.organizations.map((o) => o.organizationId)).toEqual(
    ORGANIZATIONS.map((o) => o.organization_id),
  );
  expect(names.divisions.map((d) => d.divisionId)).toEqual(DIVISIONS.map((d) => d.division_id));
};

describe('the org adapter gathering ExportNames', () => {
  it('asks a page at a time after the last ids it got, until both lists come back short', async () => {
    expectEveryRowOnce(await directory.exportNames());
    expect(fake.callsTo('exportNames').map((call) => call.request)).toEqual([
      { after_organization_id: 0, after_division_id: 0, limit: EXPORT_NAMES_PAGE },
      {
        after_organization_id: ORGANIZATIONS[EXPORT_NAMES_PAGE - 1]?.organization_id,
        after_division_id: DIVISIONS[EXPORT_NAMES_PAGE - 1]?.division_id,
        limit: EXPORT_NAMES_PAGE,
      },
      {
        after_organization_id: ORGANIZATIONS[2 * EXPORT_NAMES_PAGE - 1]?.organization_id,
        after_division_id: DIVISIONS.at(-1)?.division_id,
        limit: EXPORT_NAMES_PAGE,
      },
    ]);
  });

  it('takes each row once from a replica of the previous release, which answers everything', async () => {
    fake.answer('exportNames', async () => ({ organizations: ORGANIZATIONS, divisions: DIVISIONS }));
    expectEveryRowOnce(await directory.exportNames());
    expect(fake.callsTo('exportNames')).toHaveLength(2);
  });
});
