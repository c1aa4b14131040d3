// 'Add to calendar': an iCalendar file built with `ics` for event posts, times in Los Angeles written as UTC
// (daylight saving included), the post's title, location, description and a link back to the post's own address.
// The file (and the `ics` package) is built only when someone reaches for the link.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as ics from 'ics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { calendarFileName, eventCalendarFile, pacificInstant } from '../src/calendar/calendar';
import { eventPost, post, squareRoutes, stubApi } from './support/api';
import { findCard, renderSquare } from './support/render';

const LINK = 'https://rotunda.example/public-square';

/** The file's content lines, unfolded (RFC 5545 folds long lines with CRLF and a space). */
const linesOf = (ics: string) => ics.replace(/\r\n[ \t]/g, '').split('\r\n');

describe('Los Angeles wall-clock times', () => {
  it('are eight hours behind UTC in winter and seven in summer', () => {
    expect(new Date(pacificInstant('2026-01-15', '12:00') ?? 0).toISOString()).toBe(
      '2026-01-15T20:00:00.000Z',
    );
    expect(new Date(pacificInstant('2026-07-15', '12:00') ?? 0).toISOString()).toBe(
      '2026-07-15T19:00:00.000Z',
    );
    // The morning daylight saving starts (2 AM becomes 3 AM) and the evening before it ends.
    expect(new Date(pacificInstant('2026-03-08', '09:00') ?? 0).toISOString()).toBe(
      '2026-03-08T16:00:00.000Z',
    );
    expect(new Date(pacificInstant('2026-10-31', '23:30') ?? 0).toISOString()).toBe(
      '2026-11-01T06:30:00.000Z',
    );
    expect(new Date(pacificInstant('2026-11-01', '09:00') ?? 0).toISOString()).toBe(
      '2026-11-01T17:00:00.000Z',
    );
  });

  it('refuse what is not a date and a time', () => {
    expect(pacificInstant('15/01/2026', '12:00')).toBeNull();
    expect(pacificInstant('2026-01-15', 'noon')).toBeNull();
  });
});

describe('the .ics file', () => {
  it('holds one event with the title, location, times, description and the link back', async () => {
    const ics = await eventCalendarFile(
      eventPost({
        post_id: 12,
        post_title: 'Budget workshop, part 2',
        post_body: '<p>Bring <strong>questions</strong>.</p>',
        event_location: '1021 O Street; Room 1100',
        event_date: '2026-07-15',
        event_start: '09:30',
        event_end: '11:00',
      }),
      LINK,
    );
    if (!ics) throw new Error('no file');
    expect(ics).toMatch(/\r\n/);
    const lines = linesOf(ics);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('VERSION:2.0');
    expect(lines).toContain('PRODID:rotunda/public-square');
    expect(lines).toContain('BEGIN:VEVENT');
    expect(lines).toContain('UID:post-12@rotunda');
    expect(lines).toContain('SUMMARY:Budget workshop\\, part 2');
    expect(lines).toContain('LOCATION:1021 O Street\\; Room 1100');
    expect(lines).toContain('DTSTART:20260715T163000Z');
    expect(lines).toContain('DTEND:20260715T180000Z');
    expect(lines).toContain(`URL:${LINK}`);
    expect(lines).toContain(`DESCRIPTION:Bring questions.\\n\\n${LINK}`);
    expect(lines.some((line) => /^DTSTAMP:\d{8}T\d{6}Z$/.test(line))).toBe(true);
    expect(lines.filter((line) => line === 'END:VEVENT')).toHaveLength(1);
    expect(lines.at(-2)).toBe('END:VCALENDAR');
  });

  it('lasts an hour when the end is missing or not after the start, and needs a date and a start', async () => {
    const noEnd = await eventCalendarFile(eventPost({ event_start: '12:00', event_end: null }), LINK);
    expect(linesOf(noEnd ?? '')).toContain('DTEND:20260115T210000Z');
    const backwards = await eventCalendarFile(eventPost({ event_start: '14:00', event_end: '13:00' }), LINK);
    expect(linesOf(backwards ?? '')).toContain('DTEND:20260115T230000Z');
    expect(await eventCalendarFile(eventPost({ event_date: null }), LINK)).toBeNull();
    expect(await eventCalendarFile(eventPost({ event_start: null }), LINK)).toBeNull();
  });

  it('is named after the post', () => {
    expect(calendarFileName('Budget Workshop: Part 2!')).toBe('budget-workshop-part-2.ics');
    expect(calendarFileName('¡!')).toBe('event.ics');
  });
});

describe('on the card', () => {
  it('event posts offer the file as a download link; other posts do not', async () => {
    stubApi(
      squareRoutes([
        eventPost({ post_id: 1, post_title: 'Budget hearing' }),
        post({ post_id: 2, post_title: 'News' }),
      ]),
    );
    renderSquare();
    const card = within(await findCard('Budget hearing'));
    const link = await card.findByRole('link', { name: 'Add to calendar' });
    expect(link.getAttribute('download')).toBe('budget-hearing.ics');
    await userEvent.hover(link);
    await waitFor(() => expect(link.getAttribute('href')).toMatch(/^data:text\/calendar;charset=utf-8,/));
    const href = link.getAttribute('href') ?? '';
    const lines = linesOf(decodeURIComponent(href.slice(href.indexOf(',') + 1)));
    expect(lines).toContain('SUMMARY:Budget hearing');
    expect(lines).toContain('DTSTART:20260115T200000Z');
    // The entry leads back to the event's own post, not the whole square.
    expect(lines).toContain(`URL:${window.location.origin}/public-square/post/1`);
    await waitFor(() =>
      expect(
        within(screen.getByRole('article', { name: 'News' })).queryByRole('link', {
          name: 'Add to calendar',
        }),
      ).toBeNull(),
    );
  });

  it('builds nothing until the link is reached for: keyboard focus builds the file', async () => {
    const createEvent = vi.spyOn(ics, 'createEvent');
    stubApi(squareRoutes([eventPost({ post_id: 1, post_title: 'Budget hearing' })]));
    renderSquare();
    const link = await within(await findCard('Budget hearing')).findByRole('link', {
      name: 'Add to calendar',
    });
    expect(createEvent).not.toHaveBeenCalled();
    expect(link.getAttribute('href')).not.toMatch(/^data:/);
    link.focus();
    await waitFor(() => expect(link.getAttribute('href')).toMatch(/^data:text\/calendar/));
    expect(createEvent).toHaveBeenCalledTimes(1);
  });

  it('a click before the file is built downloads it once built', async () => {
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    stubApi(squareRoutes([eventPost({ post_id: 1, post_title: 'Budget hearing' })]));
    renderSquare();
    const link = await within(await findCard('Budget hearing')).findByRole('link', {
      name: 'Add to calendar',
    });
    link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]?.download).toBe('budget-hearing.ics');
    expect(decodeURIComponent(clicked[0]?.href ?? '')).toContain('SUMMARY:Budget hearing');
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});
