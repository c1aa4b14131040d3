// The directory's "Download CSV": the current search's filters sent to the export with the member's token, the
// file saved under the server's name through an object URL; busy while it comes; 429's own words or a calm line
// when it fails, forgotten when the filters change; not offered when nobody matches.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ISSUES, json, people, refusal, searchOf, stubApi } from './support/api';
import { renderAt, signIn } from './support/render';

const EXPORT_PATH = '/api/profiles/search/export.csv';
const CSV = '\ufefffirst_name,last_name\r\nPerson,1\r\n';

/** The links clicked to save a file, with the blob behind each object URL. */
let saved: { name: string; blob: Blob }[];

beforeEach(() => {
  saved = [];
  const blobs = new Map<string, Blob>();
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:test/${blobs.size + 1}`;
        blobs.set(url, blob);
        return url;
      },
      revokeObjectURL: (url: string) => blobs.delete(url),
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href) as Blob });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function stubWithExport(exportAnswer: () => Response | Promise<Response>, matches = 3) {
  return stubApi({
    'GET /api/profiles/search': searchOf(people(matches)),
    'GET /api/orgs/organization-groups': () => json([{ group_id: 1, group_name: 'Agencies' }]),
    'GET /api/issues/': () => json(ISSUES),
    [`GET ${EXPORT_PATH}`]: exportAnswer,
  });
}

const csvAnswer = () =>
  new Response(CSV, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="rotunda-directory-2026-11-26.csv"',
    },
  });

const button = () => screen.getByRole('button', { name: /Download CSV|Preparing CSV/ });

describe('Download CSV', () => {
  it('downloads the current search with the member’s token and saves it under the server’s name', async () => {
    signIn();
    const calls = stubWithExport(csvAnswer);
    renderAt('/directory?search=water%20board&group=Other&issue=3');
    await screen.findByText('3 people found');
    fireEvent.click(button());
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('rotunda-directory-2026-11-26.csv');
    // Byte for byte, the BOM included (text() would drop it).
    const bytes = new Uint8Array((await saved[0]?.blob.arrayBuffer()) ?? new ArrayBuffer(0));
    expect([...bytes]).toEqual([...new TextEncoder().encode(CSV)]);
    const call = calls.find((c) => c.url.pathname === EXPORT_PATH);
    expect(Object.fromEntries(call?.url.searchParams ?? [])).toEqual({
      search: 'water board',
      group: 'Other',
      issue: '3',
    });
    expect(call?.headers.get('x-auth-token')).toBe('test-token');
    expect(button().textContent).toBe('Download CSV');
  });

  it('is busy while the file comes, and cannot be pressed twice', async () => {
    signIn();
    let answer: (response: Response) => void = () => {};
    const calls = stubWithExport(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderAt('/directory');
    await screen.findByText('3 people');
    fireEvent.click(button());
    await waitFor(() => expect(button().textContent).toBe('Preparing CSV…'));
    expect((button() as HTMLButtonElement).disabled).toBe(true);
    expect(button().getAttribute('aria-busy')).toBe('true');
    fireEvent.click(button());
    answer(csvAnswer());
    await waitFor(() => expect(button().textContent).toBe('Download CSV'));
    expect(calls.filter((c) => c.url.pathname === EXPORT_PATH)).toHaveLength(1);
    expect(saved).toHaveLength(1);
  });

  it('says when to come back after too many downloads, and a calm line for other failures', async () => {
    signIn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const tooMany = 'Too many directory downloads. Try again in 312 seconds.';
    let status = 429;
    stubWithExport(() => refusal(status === 429 ? tooMany : 'boom', status));
    renderAt('/directory');
    await screen.findByText('3 people');
    fireEvent.click(button());
    expect((await screen.findByRole('alert')).textContent).toBe(tooMany);
    status = 503;
    fireEvent.click(button());
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'The CSV could not be downloaded right now. Please try again in a moment.',
      ),
    );
    expect(saved).toEqual([]);
    // Another search forgets the refusal.
    fireEvent.change(screen.getByRole('combobox', { name: 'Group' }), { target: { value: 'Other' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(button()).toBeTruthy();
  });

  it('is not offered when nobody matches', async () => {
    signIn();
    stubWithExport(csvAnswer, 0);
    renderAt('/directory?search=nobody');
    await screen.findByText('No people match your search.');
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });
});
