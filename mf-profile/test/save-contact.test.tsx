// "Save contact" on the profile card: the person's vCard fetched with the member's token and saved under the
// server's name (its UTF-8 filename* when given); busy while it comes; a calm line when it fails.

import { fileNameOf } from '@rotunda/ui';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type Handler, json, profile, refusal, stubFetch } from './support/api';
import { renderAt, signIn } from './support/render';

const VCARD = 'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Zoë Ng\r\nN:Ng;Zoë;;;\r\nEND:VCARD\r\n';
const VCARD_PATH = '/api/profiles/profile/7/vcard';

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

async function showProfile(vcard: Handler) {
  signIn({ profileId: 3 });
  const calls = stubFetch({
    'GET /api/profiles/profile/7': () => json(profile({ first_name: 'Zoë', last_name: 'Ng' })),
    'POST /api/profiles/organization-colleagues': () => json([]),
    'GET /api/issues/': () => json([]),
    [`GET ${VCARD_PATH}`]: vcard,
  });
  renderAt('/profile/7');
  await screen.findByRole('heading', { level: 1, name: 'Zoë Ng' });
  return calls;
}

const button = () => screen.getByRole('button', { name: /Save contact|Saving contact/ });

const vcardAnswer = () =>
  new Response(VCARD, {
    headers: {
      'content-type': 'text/vcard; charset=utf-8',
      'content-disposition': `attachment; filename="Zoe-Ng.vcf"; filename*=UTF-8''Zo%C3%AB-Ng.vcf`,
    },
  });

describe('Save contact', () => {
  it('saves the vCard the server answers under its UTF-8 name, fetched with the member’s token', async () => {
    const calls = await showProfile(vcardAnswer);
    fireEvent.click(button());
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('Zoë-Ng.vcf');
    expect(await saved[0]?.blob.text()).toBe(VCARD);
    const call = calls.find((c) => c.url.pathname === VCARD_PATH);
    expect(call?.headers.get('x-auth-token')).toBe('test-token');
    expect(button().textContent).toBe('Save contact');
  });

  it('is busy while the card comes', async () => {
    let answer: (response: Response) => void = () => {};
    await showProfile(() => new Promise<Response>((resolve) => (answer = resolve)));
    fireEvent.click(button());
    await waitFor(() => expect(button().textContent).toBe('Saving contact…'));
    expect((button() as HTMLButtonElement).disabled).toBe(true);
    answer(vcardAnswer());
    await waitFor(() => expect(button().textContent).toBe('Save contact'));
    expect(saved).toHaveLength(1);
  });

  it('says so when the card cannot be had, and saves nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await showProfile(() => refusal('Profile not found', 404));
    fireEvent.click(button());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The contact could not be saved right now. Please try again in a moment.',
    );
    expect(saved).toEqual([]);
  });
});

describe('the file name of a download', () => {
  it('reads filename* first, then a quoted or bare filename', () => {
    expect(fileNameOf(`attachment; filename="Zoe-Ng.vcf"; filename*=UTF-8''Zo%C3%AB-Ng.vcf`)).toBe(
      'Zoë-Ng.vcf',
    );
    expect(fileNameOf('attachment; filename="a b.csv"')).toBe('a b.csv');
    expect(fileNameOf('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameOf(`attachment; filename="safe.vcf"; filename*=UTF-8''%E0%A4%A`)).toBe('safe.vcf');
    expect(fileNameOf(null)).toBeNull();
  });
});
