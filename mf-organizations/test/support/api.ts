// A stand-in for the gateway in component tests: fetch is stubbed with a handler per "METHOD path" (the
// query string ignored when matching), and every call is recorded with its URL and body.
import { vi } from 'vitest';
import type { Division, Organization, OrganizationDetail } from '../../src/api';

export interface RecordedCall {
  method: string;
  url: URL;
  body: BodyInit | null | undefined;
  headers: Headers;
}

export type Handler = (call: RecordedCall) => Response | Promise<Response>;

export function stubApi(routes: Record<string, Handler>): RecordedCall[] {
  const calls: RecordedCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://rotunda.test');
      const call = {
        method: init.method ?? 'GET',
        url,
        body: init.body,
        headers: new Headers(init.headers),
      };
      calls.push(call);
      const handler = routes[`${call.method} ${url.pathname}`];
      if (!handler) return Response.json({ errors: [{ msg: `No such endpoint` }] }, { status: 404 });
      return handler(call);
    }),
  );
  return calls;
}

export const json = (body: unknown, status = 200) => Response.json(body, { status });
export const refusal = (msg: string, status = 400) => Response.json({ errors: [{ msg }] }, { status });

export function organization(overrides: Partial<Organization> = {}): Organization {
  const id = overrides.organization_id ?? 1;
  return {
    organization_id: id,
    organization_name: `Organization ${id}`,
    group_id: 2,
    group_type: 'Agencies',
    street_address: '715 P Street',
    suite_number: null,
    city: 'Sacramento',
    state: 'CA',
    zip_code: '95814',
    website: null,
    main_phone: '(916) 555-0100',
    logo: null,
    lobby_filer_id: null,
    linkedin_url: null,
    facebook_url: null,
    youtube_url: null,
    threads_url: null,
    twitter_url: null,
    instagram_url: null,
    tiktok_url: null,
    bluesky_url: null,
    email_domains: [],
    ...overrides,
  };
}

export function division(overrides: Partial<Division> & { division_name: string }): Division {
  return {
    division_id: Math.floor(Math.random() * 1e9),
    division_type: 'Office',
    active_division: true,
    organization_id: 1,
    street_address: null,
    suite_number: null,
    city: null,
    state: null,
    zip_code: null,
    division_phone: null,
    website: null,
    ...overrides,
  };
}

export function detail(overrides: Partial<OrganizationDetail> = {}): OrganizationDetail {
  return { ...organization(overrides), Divisions: overrides.Divisions ?? [] };
}

export const GROUPS = [
  'Associations',
  'Agencies',
  "Governor's Office",
  'Legislature',
  'Lobbyists',
  'Unions',
  'Campaigns',
  'Other',
].map((group_name, i) => ({ group_id: i + 1, group_name }));
