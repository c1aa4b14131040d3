// The REST calls of the organization screens (docs/api.md for /api/orgs,
// docs/product.md#7-the-calls-it-makes) and their answers' shapes. Every call is member-only: @rotunda/ui's
// client sends the session's fresh access token with each one, and throws its ApiError (the status and the
// server's own message) for anything but 2xx.
import type { OrganizationFieldName } from '@rotunda/rules';
import { asList, call, type Division, type HistoryEntry, type StoredAddress } from '@rotunda/ui';

export type { Division, StoredAddress };

/**
 * An organization as the gateway answers it (docs/api.md: `organization`): the fields of @rotunda/rules'
 * ORGANIZATION_FIELDS, null where not given, and the rest.
 */
export interface Organization extends Record<OrganizationFieldName, string | null> {
  organization_id: number;
  organization_name: string;
  group_id: number;
  group_type: string;
  logo: string | null;
  /** Email domains a contributor listed (verified employer); the website's host counts as well. */
  email_domains: string[];
}

/** GET /api/orgs/:id: the organization with its divisions, active or not. */
export interface OrganizationDetail extends Organization {
  Divisions: Division[];
}

export interface OrganizationPage {
  organizations: Organization[];
  total: number;
  offset: number;
  limit: number;
}

/** The fields the Edit Organization form sends (docs/api.md: update-organization's `…fields`). */
export type OrganizationUpdate = {
  organization_id: number;
  organization_name: string;
  /** Replaces the listed email domains; left out, they are kept. */
  email_domains?: string[];
} & Partial<Record<OrganizationFieldName, string>>;

const getJson = <T>(path: string, signal?: AbortSignal) => call<T>('GET', path, signal ? { signal } : {});

const postJson = <T>(path: string, body: unknown) => call<T>('POST', path, { body });

/** Contributors only: the curation history of the organization, newest first. */
export async function fetchOrganizationHistory(
  organizationId: number,
  signal: AbortSignal,
): Promise<HistoryEntry[]> {
  return asList(await getJson<unknown>(`/api/history/organization/${organizationId}`, signal), 'history');
}

/**
 * Page size of the organization list (docs/product.md#9-business-constants-and-limits: 30 at first, growing
 * by 30).
 */
export const PAGE_SIZE = 30;

export interface ListQuery {
  search: string;
  group: string;
  offset: number;
  limit?: number;
}

/** One page of the list, searched (every word in the name) and filtered by group on the server. */
export function fetchOrganizationPage(query: ListQuery, signal?: AbortSignal): Promise<OrganizationPage> {
  const params = new URLSearchParams({
    search: query.search,
    group: query.group,
    offset: String(query.offset),
    limit: String(query.limit ?? PAGE_SIZE),
  });
  return getJson<OrganizationPage>(`/api/orgs/?${params}`, signal);
}

export function fetchOrganization(id: string, signal?: AbortSignal): Promise<OrganizationDetail> {
  return getJson<OrganizationDetail>(`/api/orgs/${encodeURIComponent(id)}`, signal);
}

export function updateOrganization(update: OrganizationUpdate): Promise<Organization> {
  return postJson<Organization>('/api/orgs/update-organization', update);
}

/** Uploads a logo (multipart: logo, organization_id, image_type); answers the stored logo's URL. */
export async function uploadLogo(organizationId: number, file: Blob, fileName: string): Promise<string> {
  const form = new FormData();
  form.set('organization_id', String(organizationId));
  form.set('image_type', file.type);
  form.set('logo', file, fileName);
  const answer = await call<{ url: string }>('POST', '/api/orgs/upload-organization-logo', { body: form });
  return answer.url;
}
