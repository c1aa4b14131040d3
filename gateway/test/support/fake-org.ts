// A fake OrgService on a real gRPC server for the gateway's /api/orgs tests: records every call with the
// caller from the metadata and answers canned organizations, divisions and groups; one test may replace an
// answer (or throw a DomainError) with `answer`.
import { type Division, type Organization, OrgServiceService } from '@rotunda/protos/org';
import {
  type CallContext,
  type Caller,
  type RunningGrpcServer,
  startGrpcServer,
  unary,
} from '@rotunda/service-kit';
import { testCallers } from '@rotunda/service-kit/testing';
import { logger } from './fake-auth.ts';

type Handler = (request: Record<string, unknown>, context: CallContext) => Promise<object>;

export interface RecordedOrgCall {
  method: string;
  request: Record<string, unknown>;
  caller: Caller | undefined;
}

export const ORGANIZATION: Organization = {
  organization_id: 12,
  organization_name: 'Capitol Bridge Advocates',
  group_id: 5,
  group_type: 'Lobbyists',
  street_address: '1201 K Street',
  suite_number: 'Suite 1050',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  website: 'https://capitolbridge.example.org',
  main_phone: '(916) 555-0120',
  logo: '/media/logos/2026/11/0b1d3a52-7c1e-4d8a-9a43-1d2f6b1f0a01.png',
  lobby_filer_id: '9100120',
  linkedin_url: 'https://www.linkedin.com/company/capitolbridge-demo',
  email_domains: ['capitolbridge.example.org'],
  website_confirmed: true,
};

export const DIVISION: Division = {
  division_id: 3,
  division_name: 'Government Affairs',
  division_type: 'Office',
  active_division: true,
  organization_id: 12,
  organization_name: 'Capitol Bridge Advocates',
  city: 'Sacramento',
  state: 'CA',
  division_phone: '(916) 555-0141',
};

export const GROUPS = [
  { group_id: 1, group_name: 'Associations' },
  { group_id: 5, group_name: 'Lobbyists' },
];

export interface FakeOrg {
  server: RunningGrpcServer;
  address: string;
  calls: RecordedOrgCall[];
  answer: (method: string, handler: Handler) => void;
  callsTo: (method: string) => RecordedOrgCall[];
  reset: () => void;
}

export async function startFakeOrg(): Promise<FakeOrg> {
  const calls: RecordedOrgCall[] = [];
  const defaults: Record<string, Handler> = {
    listGroups: async () => ({ groups: GROUPS }),
    listOrganizations: async () => ({ organizations: [ORGANIZATION] }),
    searchOrganizations: async () => ({ organizations: [ORGANIZATION], total: 41 }),
    getOrganization: async () => ({ organization: ORGANIZATION, divisions: [DIVISION] }),
    addOrganization: async () => ({ organization: ORGANIZATION, created: true }),
    updateOrganization: async () => ORGANIZATION,
    setOrganizationLogo: async () => ({
      url: '/media/logos/2026/11/1c2d3a52-7c1e-4d8a-9a43-1d2f6b1f0a02.png',
    }),
    findOrganizationsByName: async () => ({ organizations: [ORGANIZATION] }),
    findDivisionsByName: async () => ({ divisions: [DIVISION] }),
    addDivision: async () => ({ division: DIVISION, created: true }),
    listDivisions: async () => ({ divisions: [DIVISION] }),
  };
  let overrides: Record<string, Handler> = {};
  const implementation = Object.fromEntries(
    Object.keys(OrgServiceService).map((method) => [
      method,
      unary(logger, method, async (request: Record<string, unknown>, context) => {
        calls.push({ method, request, caller: context.caller });
        const handler = overrides[method] ?? defaults[method];
        if (!handler) throw new Error(`no answer for ${method}`);
        return handler(request, context);
      }),
    ]),
  );
  const server = await startGrpcServer({
    callers: testCallers.verifier,
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [{ name: 'rotunda.org.v1.OrgService', definition: OrgServiceService, implementation }],
  });
  return {
    server,
    address: `127.0.0.1:${server.port}`,
    calls,
    answer: (method, handler) => {
      overrides[method] = handler;
    },
    callsTo: (method) => calls.filter((call) => call.method === method),
    reset: () => {
      overrides = {};
      calls.length = 0;
    },
  };
}
