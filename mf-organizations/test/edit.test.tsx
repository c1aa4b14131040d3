// The Edit Organization dialog: Save only with a name and a street address, and a name with letters, live
// formatting, the Cal-Access ID only for Lobbyists, Associations and Unions, a filer number, locked once set
// until the contributor chooses Correct, saving (and the server's refusal shown in the dialog), and the logo:
// refused by type or size with the spec's texts, otherwise uploaded at once.
import { formatPhone, IMAGE_LIMITS, IMAGE_MESSAGES } from '@rotunda/rules';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { OrganizationDetail } from '../src/api';
import { canSave, formatOnLeave, formatWhileTyping, initialValues, updateFrom } from '../src/edit/form';
import { type Handler, json, organization, type RecordedCall, refusal, stubFetch } from './support/api';
import { renderAt, signIn } from './support/render';

function detailOf(overrides: Partial<OrganizationDetail> = {}): OrganizationDetail {
  return {
    ...organization({ organization_id: 5, organization_name: 'Capitol Bridge Advocates', ...overrides }),
    Divisions: [],
  };
}

async function openEditor(start: OrganizationDetail, routes: Record<string, Handler> = {}) {
  signIn({ contributor: true });
  let current = start;
  const calls = stubFetch({
    'GET /api/orgs/5': () => json(current),
    'POST /api/profiles/organization-colleagues': () => refusal('No such endpoint', 404),
    'POST /api/orgs/update-organization': (call) => {
      const body = JSON.parse(String(call.body));
      current = { ...current, ...body };
      return json(current);
    },
    ...routes,
  });
  renderAt('/organization/5');
  const edit = await screen.findByRole('button', { name: 'Edit organization' });
  edit.focus();
  fireEvent.click(edit);
  const dialog = screen.getByRole('dialog', { name: 'Edit organization' });
  return { calls, dialog, edit };
}

const field = (dialog: HTMLElement, label: string) =>
  within(dialog).getByLabelText(label, { exact: false, selector: 'input' }) as HTMLInputElement;
const save = (dialog: HTMLElement) =>
  within(dialog).getByRole('button', { name: 'Save changes' }) as HTMLButtonElement;
const posted = (calls: RecordedCall[], path: string) => calls.filter((c) => c.url.pathname === path);

describe('the form', () => {
  it('opens on the name, filled in with the organization', async () => {
    const { dialog } = await openEditor(
      detailOf({ suite_number: 'Suite 1050', website: 'https://cb.example.org' }),
    );
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(document.activeElement).toBe(field(dialog, 'Name'));
    expect(field(dialog, 'Name').value).toBe('Capitol Bridge Advocates');
    expect(field(dialog, 'Street address').value).toBe('715 P Street');
    expect(field(dialog, 'Suite').value).toBe('Suite 1050');
    expect(field(dialog, 'Website').value).toBe('https://cb.example.org');
    for (const network of [
      'LinkedIn',
      'Facebook',
      'YouTube',
      'Threads',
      'Twitter/X',
      'Instagram',
      'TikTok',
      'Bluesky',
    ])
      expect(field(dialog, network)).toBeTruthy();
  });

  it('enables Save only with a name and a street address', async () => {
    const { dialog } = await openEditor(detailOf());
    expect(save(dialog).disabled).toBe(false);
    fireEvent.change(field(dialog, 'Name'), { target: { value: '   ' } });
    expect(save(dialog).disabled).toBe(true);
    fireEvent.change(field(dialog, 'Name'), { target: { value: 'Capitol Bridge' } });
    fireEvent.change(field(dialog, 'Street address'), { target: { value: '' } });
    expect(save(dialog).disabled).toBe(true);
    expect(within(dialog).getByText('Enter a name and a street address to save.')).toBeTruthy();
    fireEvent.change(field(dialog, 'Street address'), { target: { value: '1201 k street' } });
    expect(save(dialog).disabled).toBe(false);
  });

  it('formats as the member types: title case for address and city, upper-case state, a 10-digit phone', async () => {
    const { dialog } = await openEditor(detailOf());
    fireEvent.change(field(dialog, 'Street address'), { target: { value: '1020 n street of the capitol' } });
    expect(field(dialog, 'Street address').value).toBe('1020 N Street of the Capitol');
    fireEvent.change(field(dialog, 'City'), { target: { value: 'west sacramento' } });
    expect(field(dialog, 'City').value).toBe('West Sacramento');
    fireEvent.change(field(dialog, 'State'), { target: { value: 'ca' } });
    expect(field(dialog, 'State').value).toBe('CA');
    fireEvent.change(field(dialog, 'Phone'), { target: { value: '916555012' } });
    expect(field(dialog, 'Phone').value).toBe('916555012');
    fireEvent.change(field(dialog, 'Phone'), { target: { value: '9165550123' } });
    expect(field(dialog, 'Phone').value).toBe('(916) 555-0123');
  });

  it('trims and formats when the member leaves a field', async () => {
    const { dialog } = await openEditor(detailOf());
    const city = field(dialog, 'City');
    fireEvent.change(city, { target: { value: '  davis ' } });
    fireEvent.blur(city);
    expect(city.value).toBe('Davis');
    const phone = field(dialog, 'Phone');
    fireEvent.change(phone, { target: { value: ' 916.555.0199 ' } });
    fireEvent.blur(phone);
    expect(phone.value).toBe(formatPhone('9165550199'));
  });

  it('says a name without letters is not one and keeps Save disabled until it is', async () => {
    const { dialog, calls } = await openEditor(detailOf());
    for (const name of ['0', '1e+308', '----']) {
      fireEvent.change(field(dialog, 'Name'), { target: { value: name } });
      expect(save(dialog).disabled).toBe(true);
      expect(field(dialog, 'Name').getAttribute('aria-invalid')).toBe('true');
      const describedBy = field(dialog, 'Name').getAttribute('aria-describedby') ?? '';
      expect(document.getElementById(describedBy.split(' ')[0] ?? '')?.textContent).toBe(
        'Organization Name must contain letters, not only numbers or symbols.',
      );
    }
    expect(within(dialog).getByText('Correct the fields marked above to save.')).toBeTruthy();
    fireEvent.submit(save(dialog).form as HTMLFormElement);
    expect(posted(calls, '/api/orgs/update-organization')).toHaveLength(0);
    fireEvent.change(field(dialog, 'Name'), { target: { value: '3M Government Affairs' } });
    expect(save(dialog).disabled).toBe(false);
    expect(within(dialog).queryByText(/must contain letters/)).toBeNull();
  });

  it('closes on Cancel and gives focus back to the edit button', async () => {
    const { dialog, edit } = await openEditor(detailOf());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((dialog as HTMLDialogElement).open).toBe(false);
    expect(document.activeElement).toBe(edit);
  });
});

describe('Cal-Access ID', () => {
  for (const group of ['Lobbyists', 'Associations', 'Unions']) {
    it(`is editable for ${group} without one`, async () => {
      const { dialog } = await openEditor(detailOf({ group_type: group }));
      expect(field(dialog, 'Cal-Access ID').disabled).toBe(false);
    });
  }

  for (const group of ['Agencies', "Governor's Office", 'Legislature', 'Campaigns', 'Other']) {
    it(`is not shown for ${group}`, async () => {
      const { dialog } = await openEditor(detailOf({ group_type: group }));
      expect(within(dialog).queryByLabelText('Cal-Access ID')).toBeNull();
    });
  }

  it('is disabled once set, and not sent', async () => {
    const { dialog, calls } = await openEditor(
      detailOf({ group_type: 'Lobbyists', lobby_filer_id: '9100120' }),
    );
    expect(field(dialog, 'Cal-Access ID').disabled).toBe(true);
    expect(field(dialog, 'Cal-Access ID').value).toBe('9100120');
    fireEvent.click(save(dialog));
    await waitFor(() => expect(posted(calls, '/api/orgs/update-organization')).toHaveLength(1));
    const body = JSON.parse(String(posted(calls, '/api/orgs/update-organization')[0]?.body));
    expect(body).not.toHaveProperty('lobby_filer_id');
  });

  it('is sent when newly given', async () => {
    const { dialog, calls } = await openEditor(detailOf({ group_type: 'Unions' }));
    expect(within(dialog).queryByRole('button', { name: 'Correct the Cal-Access ID' })).toBeNull();
    fireEvent.change(field(dialog, 'Cal-Access ID'), { target: { value: ' 1234567 ' } });
    fireEvent.click(save(dialog));
    await waitFor(() => expect(posted(calls, '/api/orgs/update-organization')).toHaveLength(1));
    const body = JSON.parse(String(posted(calls, '/api/orgs/update-organization')[0]?.body));
    expect(body.lobby_filer_id).toBe('1234567');
  });

  it('is unlocked by Correct, and the corrected number is sent', async () => {
    const { dialog, calls } = await openEditor(
      detailOf({ group_type: 'Lobbyists', lobby_filer_id: '9100120' }),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Correct the Cal-Access ID' }));
    const input = field(dialog, 'Cal-Access ID');
    expect(input.disabled).toBe(false);
    expect(document.activeElement).toBe(input);
    expect(within(dialog).queryByRole('button', { name: 'Correct the Cal-Access ID' })).toBeNull();
    fireEvent.change(input, { target: { value: '9100210' } });
    fireEvent.click(save(dialog));
    await waitFor(() => expect(posted(calls, '/api/orgs/update-organization')).toHaveLength(1));
    const body = JSON.parse(String(posted(calls, '/api/orgs/update-organization')[0]?.body));
    expect(body.lobby_filer_id).toBe('9100210');
  });

  it('is removed when emptied after Correct', async () => {
    const { dialog, calls } = await openEditor(
      detailOf({ group_type: 'Associations', lobby_filer_id: '9100120' }),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Correct the Cal-Access ID' }));
    fireEvent.change(field(dialog, 'Cal-Access ID'), { target: { value: ' ' } });
    fireEvent.click(save(dialog));
    await waitFor(() => expect(posted(calls, '/api/orgs/update-organization')).toHaveLength(1));
    const body = JSON.parse(String(posted(calls, '/api/orgs/update-organization')[0]?.body));
    expect(body.lobby_filer_id).toBe('');
  });

  it('says a value that is not a filer number is refused, and keeps Save disabled', async () => {
    const { dialog } = await openEditor(detailOf({ group_type: 'Unions' }));
    fireEvent.change(field(dialog, 'Cal-Access ID'), { target: { value: 'F-1234' } });
    expect(save(dialog).disabled).toBe(true);
    expect(
      within(dialog).getByText(
        'The Cal-Access ID is the filer number from the lobbying disclosure site: digits only, e.g. 1234567.',
      ),
    ).toBeTruthy();
    fireEvent.change(field(dialog, 'Cal-Access ID'), { target: { value: '1234567' } });
    expect(save(dialog).disabled).toBe(false);
  });
});

describe('saving', () => {
  it('posts the update, closes, and shows the organization as saved', async () => {
    const { dialog, calls } = await openEditor(detailOf());
    fireEvent.change(field(dialog, 'Name'), { target: { value: 'Capitol Bridge Partners ' } });
    fireEvent.change(field(dialog, 'Suite'), { target: { value: 'Suite 200' } });
    fireEvent.change(field(dialog, 'LinkedIn'), { target: { value: 'https://linkedin.com/company/cbp' } });
    fireEvent.click(save(dialog));
    await screen.findByRole('heading', { level: 1, name: 'Capitol Bridge Partners' });
    expect((dialog as HTMLDialogElement).open).toBe(false);
    const body = JSON.parse(String(posted(calls, '/api/orgs/update-organization')[0]?.body));
    expect(body).toMatchObject({
      organization_id: 5,
      organization_name: 'Capitol Bridge Partners',
      street_address: '715 P Street',
      suite_number: 'Suite 200',
      city: 'Sacramento',
      state: 'CA',
      zip_code: '95814',
      main_phone: '(916) 555-0100',
      website: '',
      linkedin_url: 'https://linkedin.com/company/cbp',
      bluesky_url: '',
    });
    // The page's data was fetched again after the save.
    expect(posted(calls, '/api/orgs/5').length).toBeGreaterThanOrEqual(2);
    expect(
      calls.find((c) => c.url.pathname === '/api/orgs/update-organization')?.headers.get('x-auth-token'),
    ).toBe('test-token');
  });

  it("shows the server's message in the dialog on a 400 and stays open", async () => {
    const { dialog } = await openEditor(detailOf(), {
      'POST /api/orgs/update-organization': () =>
        refusal('Website must be a web address starting with http:// or https://.'),
    });
    fireEvent.change(field(dialog, 'Website'), { target: { value: 'ftp://files' } });
    fireEvent.click(save(dialog));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe('Website must be a web address starting with http:// or https://.');
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(save(dialog).disabled).toBe(false);
  });
});

describe('logo', () => {
  function choose(dialog: HTMLElement, file: File) {
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    expect(input.getAttribute('accept')).toBe('.jpg,.jpeg,.png');
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    fireEvent.change(input);
  }

  it('refuses a file that is not .jpg, .jpeg or .png, without uploading it', async () => {
    const { dialog, calls } = await openEditor(detailOf());
    choose(dialog, new File(['GIF89a'], 'logo.gif', { type: 'image/gif' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(IMAGE_MESSAGES.incorrectFormat);
    expect(posted(calls, '/api/orgs/upload-organization-logo')).toHaveLength(0);
  });

  it('refuses an image that stays over the size limit', async () => {
    const { dialog, calls } = await openEditor(detailOf());
    choose(dialog, new File([new Uint8Array(IMAGE_LIMITS.maxBytes + 1)], 'huge.png', { type: 'image/png' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(IMAGE_MESSAGES.tooLarge);
    expect(posted(calls, '/api/orgs/upload-organization-logo')).toHaveLength(0);
  });

  it('uploads a chosen image at once, as multipart, and shows the new logo', async () => {
    const { dialog, calls } = await openEditor(detailOf(), {
      'POST /api/orgs/upload-organization-logo': () => json({ url: '/media/logos/2026/11/new.png' }),
    });
    choose(dialog, new File([new Uint8Array([137, 80, 78, 71])], 'Logo.PNG', { type: 'image/png' }));
    expect(await within(dialog).findByText('Logo updated.')).toBeTruthy();
    const upload = posted(calls, '/api/orgs/upload-organization-logo')[0];
    const form = upload?.body as FormData;
    expect(form.get('organization_id')).toBe('5');
    expect(form.get('image_type')).toBe('image/png');
    expect((form.get('logo') as File).name).toBe('Logo.PNG');
    expect(upload?.headers.get('x-auth-token')).toBe('test-token');
    // The page behind shows it too, before any save.
    const header = document.querySelector('.orgs-profile__header');
    expect(header?.querySelector('img')?.getAttribute('src')).toBe('/media/logos/2026/11/new.png');
  });

  it("shows the server's message when it refuses the image", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { dialog } = await openEditor(detailOf(), {
      'POST /api/orgs/upload-organization-logo': () => refusal(IMAGE_MESSAGES.incorrectFormat),
    });
    choose(dialog, new File(['not really a png'], 'fake.png', { type: 'image/png' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(IMAGE_MESSAGES.incorrectFormat);
  });
});

describe('form rules', () => {
  it('Save needs a name and a street address', () => {
    expect(canSave({ organization_name: 'A', street_address: '1 Main' })).toBe(true);
    expect(canSave({ organization_name: '', street_address: '1 Main' })).toBe(false);
    expect(canSave({ organization_name: 'A', street_address: '  ' })).toBe(false);
  });

  it('formats only the fields the spec names', () => {
    expect(formatWhileTyping('city', 'san luis obispo')).toBe('San Luis Obispo');
    expect(formatWhileTyping('suite_number', 'suite a')).toBe('suite a');
    expect(formatWhileTyping('organization_name', 'the water board')).toBe('the water board');
    expect(formatOnLeave('state', ' ca ')).toBe('CA');
  });

  it('sends blank fields as blank, which clears them', () => {
    const org = organization({ organization_id: 9, website: 'https://old.example.org' });
    const values = { ...initialValues(org), website: '  ' };
    expect(updateFrom(org, values).website).toBe('');
  });
});
