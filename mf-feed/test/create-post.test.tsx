// The Create Post modal: Save looks disabled until the required fields are filled and a click then lists the
// missing ones with the shared message; events add location, date, start (12:00), end (13:00) and the event
// type (as the server orders them); a saved post closes the modal and the feed shows Recent from the top.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { callsTo, EVENT_TYPES, json, post, refusal, squareRoutes, stubApi } from './support/api';
import { renderSquare, signIn } from './support/render';

async function openCreate() {
  fireEvent.click(screen.getByRole('button', { name: 'Create Post' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Create Post' }));
  // Quill arrives by a dynamic import.
  await dialog.findByRole('textbox', { name: /Post Body/ });
  return dialog;
}

const save = (dialog: ReturnType<typeof within>) => dialog.getByRole('button', { name: 'Save changes' });

async function writeBody(dialog: ReturnType<typeof within>, text: string) {
  const body = dialog.getByRole('textbox', { name: /Post Body/ });
  await userEvent.click(body);
  await userEvent.type(body, text);
}

describe('required fields', () => {
  it('lists every missing field when Save is clicked while incomplete, and sends nothing', async () => {
    signIn();
    const calls = stubApi(squareRoutes([]));
    renderSquare();
    const dialog = await openCreate();
    expect(save(dialog).getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(dialog.getByRole('textbox', { name: /Post Title/ }));
    fireEvent.click(save(dialog));
    expect(dialog.getByRole('alert').textContent).toBe(
      'Please provide entries for the following required fields: Post Title, Post Body, Type of Post',
    );

    await userEvent.type(dialog.getByRole('textbox', { name: /Post Title/ }), 'Hearing notice');
    fireEvent.click(save(dialog));
    expect(dialog.getByRole('alert').textContent).toBe(
      'Please provide entries for the following required fields: Post Body, Type of Post',
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(callsTo(calls, 'POST /api/posts/add-post')).toHaveLength(0);
  });

  it('for an event adds location, date, start 12:00, end 13:00 and the event types, OTHER last', async () => {
    signIn();
    const calls = stubApi(squareRoutes([]));
    renderSquare();
    const dialog = await openCreate();
    expect(dialog.queryByLabelText(/Event Location/)).toBeNull();
    const type = dialog.getByRole('combobox', { name: /Type of Post/ });
    await waitFor(() => expect(within(type).getAllByRole('option')).toHaveLength(4));
    fireEvent.change(type, { target: { value: '9' } });

    expect((dialog.getByLabelText(/Start Time/) as HTMLInputElement).value).toBe('12:00');
    expect((dialog.getByLabelText(/End Time/) as HTMLInputElement).value).toBe('13:00');
    expect((dialog.getByLabelText(/Event Date/) as HTMLInputElement).type).toBe('date');
    const eventType = dialog.getByRole('combobox', { name: 'Event Type' });
    await waitFor(() =>
      expect(within(eventType).getAllByRole('option')).toHaveLength(EVENT_TYPES.length + 1),
    );
    expect(
      within(eventType)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose an event type', 'HEARING', 'RECEPTION', 'WORKSHOP', 'OTHER']);
    expect(callsTo(calls, 'GET /api/posts/event-types')).toHaveLength(1);

    await userEvent.type(dialog.getByRole('textbox', { name: /Post Title/ }), 'Budget hearing');
    await writeBody(dialog, 'Join us');
    fireEvent.change(dialog.getByLabelText(/End Time/), { target: { value: '' } });
    fireEvent.click(save(dialog));
    expect(dialog.getByRole('alert').textContent).toBe(
      'Please provide entries for the following required fields: Event Location, Event Date, End Time',
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(callsTo(calls, 'POST /api/posts/add-post')).toHaveLength(0);
  });
});

describe('saving', () => {
  it('sends the post, closes, and the feed starts again from Recent with nothing filtered', async () => {
    signIn();
    let created = false;
    const calls = stubApi(
      squareRoutes([], {
        'POST /api/posts/all': () =>
          json(
            created ? [post({ post_id: 99, post_title: 'Budget hearing' }), post({ post_id: 1 })] : [post()],
          ),
        'POST /api/posts/add-post': () => {
          created = true;
          return json(post({ post_id: 99, post_title: 'Budget hearing' }), 201);
        },
      }),
    );
    renderSquare();
    await screen.findByRole('article', { name: 'Post 1' });
    fireEvent.click(screen.getByRole('button', { name: 'Popular' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Filter by type' }), { target: { value: '2' } });

    const dialog = await openCreate();
    await userEvent.type(dialog.getByRole('textbox', { name: /Post Title/ }), '  Budget hearing ');
    await writeBody(dialog, 'Bring questions');
    const type = dialog.getByRole('combobox', { name: /Type of Post/ });
    await waitFor(() => expect(within(type).getAllByRole('option')).toHaveLength(4));
    fireEvent.change(type, { target: { value: '1' } });
    expect(save(dialog).getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(save(dialog));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = callsTo(calls, 'POST /api/posts/add-post')[0];
    expect(sent?.headers.get('x-auth-token')).toBe('test-token');
    expect(sent?.body).toMatchObject({
      post_title: 'Budget hearing',
      post_type: 1,
      event_location: null,
      event_date: null,
      event_start: null,
      event_end: null,
      event_type: null,
    });
    expect(String(sent?.body?.post_body)).toContain('Bring questions');

    await waitFor(() =>
      expect(screen.getAllByRole('article')[0]?.getAttribute('aria-labelledby')).toBeTruthy(),
    );
    await waitFor(() => expect(screen.getAllByRole('article')[0]?.textContent).toContain('Budget hearing'));
    expect(callsTo(calls, 'POST /api/posts/all').at(-1)?.body).toEqual({
      offset: 0,
      limit: 20,
      sort: 'recent',
    });
    expect(screen.getByRole('button', { name: 'Recent' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('sends the event fields with an event', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes([], { 'POST /api/posts/add-post': () => json(post({ post_id: 5 }), 201) }),
    );
    renderSquare();
    const dialog = await openCreate();
    await userEvent.type(dialog.getByRole('textbox', { name: /Post Title/ }), 'Reception');
    await writeBody(dialog, 'Welcome');
    const type = dialog.getByRole('combobox', { name: /Type of Post/ });
    await waitFor(() => expect(within(type).getAllByRole('option')).toHaveLength(4));
    fireEvent.change(type, { target: { value: '9' } });
    await userEvent.type(dialog.getByLabelText(/Event Location/), 'Capitol Annex');
    fireEvent.change(dialog.getByLabelText(/Event Date/), { target: { value: '2026-05-06' } });
    const eventType = dialog.getByRole('combobox', { name: 'Event Type' });
    await waitFor(() => expect(within(eventType).getAllByRole('option')).toHaveLength(5));
    fireEvent.change(eventType, { target: { value: '1' } });
    fireEvent.click(save(dialog));
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/add-post')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/posts/add-post')[0]?.body).toMatchObject({
      post_title: 'Reception',
      post_type: 9,
      event_location: 'Capitol Annex',
      event_date: '2026-05-06',
      event_start: '12:00',
      event_end: '13:00',
      event_type: 1,
    });
  });

  it('says an event must end after it starts, and sends nothing until it does', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes([], { 'POST /api/posts/add-post': () => json(post({ post_id: 6 }), 201) }),
    );
    renderSquare();
    const dialog = await openCreate();
    await userEvent.type(dialog.getByRole('textbox', { name: /Post Title/ }), 'Briefing');
    await writeBody(dialog, 'Agenda to follow');
    const type = dialog.getByRole('combobox', { name: /Type of Post/ });
    await waitFor(() => expect(within(type).getAllByRole('option')).toHaveLength(4));
    fireEvent.change(type, { target: { value: '9' } });
    await userEvent.type(dialog.getByLabelText(/Event Location/), 'Room 1100');
    fireEvent.change(dialog.getByLabelText(/Event Date/), { target: { value: '2026-05-06' } });
    fireEvent.change(dialog.getByLabelText(/End Time/), { target: { value: '11:00' } });
    fireEvent.click(save(dialog));
    expect(await dialog.findByText('End Time must be after Start Time.')).toBeTruthy();
    expect(callsTo(calls, 'POST /api/posts/add-post')).toHaveLength(0);
    fireEvent.change(dialog.getByLabelText(/End Time/), { target: { value: '12:30' } });
    fireEvent.click(save(dialog));
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/add-post')).toHaveLength(1));
  });

  it("shows the server's refusal and keeps the form", async () => {
    signIn();
    stubApi(
      squareRoutes([], {
        'POST /api/posts/add-post': () => refusal('Please create your profile before posting', 409),
      }),
    );
    renderSquare();
    const dialog = await openCreate();
    await userEvent.type(dialog.getByRole('textbox', { name: /Post Title/ }), 'Hello');
    await writeBody(dialog, 'World');
    const type = dialog.getByRole('combobox', { name: /Type of Post/ });
    await waitFor(() => expect(within(type).getAllByRole('option')).toHaveLength(4));
    fireEvent.change(type, { target: { value: '1' } });
    fireEvent.click(save(dialog));
    expect((await dialog.findByRole('alert')).textContent).toBe('Please create your profile before posting');
    expect((dialog.getByRole('textbox', { name: /Post Title/ }) as HTMLInputElement).value).toBe('Hello');
  });

  it('offers the editor toolbar the spec names', async () => {
    signIn();
    stubApi(squareRoutes([]));
    renderSquare();
    const dialog = await openCreate();
    const toolbar = dialog.getByRole('toolbar');
    expect(
      within(toolbar)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['bold', 'italic', 'underline', 'list: ordered', 'list: bullet', 'link', 'clean']);
  });
});
